import type { MiddlewareFn } from "type-graphql";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";

/** What an identity-service key may read of a user; the groups check their own scopes. */
const KEY_READABLE_USER_FIELDS = new Set(["id", "created_at", "identity_record", "kyc", "__typename"]);

/**
 * User lookup hands identity-service keys (and PINT tokens) a User entity. Whatever a key asks through GraphQL,
 * it reads only the lookup fields of the user: every other field (wallets, history, the
 * record's top-level fields) is refused, so scopes cannot be sidestepped by a richer query.
 */
export const apiKeyFieldGuard: MiddlewareFn<RequestContext> = async ({ context, info }, next) => {
  const kind = context.principal?.kind;
  if ((kind === "api_key" || kind === "pint") && info.parentType.name === "User" && !KEY_READABLE_USER_FIELDS.has(info.fieldName))
    throw appError("IDS-403-001", `API keys cannot read User.${info.fieldName}.`);
  return next();
};
