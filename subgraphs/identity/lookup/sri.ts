import { appError } from "../../../lib/errors/app-error.ts";

/**
 * Resource identifiers of `GET /v0/users/{sri}`: today the platform user id (`usr_` + 26
 * lower-case Crockford base32 characters). The format leaves room for more kinds (for example a
 * CAIP-10 wallet account `eip155:<chain>:<address>`) without clashing with user ids.
 */
const USER_ID = /^usr_[0-9a-hjkmnp-tv-z]{26}$/;

export function parseSri(sri: string): { kind: "user"; user_id: string } {
  if (USER_ID.test(sri)) return { kind: "user", user_id: sri };
  throw appError("IDS-400-001");
}
