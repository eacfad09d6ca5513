import { Type } from "@sinclair/typebox";
import { appError } from "../../lib/errors/app-error.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { EpochMs, Links } from "../route-kit/schemas.ts";
import { USER_IDENTITY_RECORD_FIELDS, USER_KYC_FIELDS, USER_PINTS_FIELDS, UserIdentityRecord, UserKyc, UserPints } from "../resources/resources.generated.ts";

/** Groups a key's scopes do not grant come back null and are left out of the answer. */
function withoutNulls<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as Partial<T>;
}

export const userLookupRoutes = [
  defineRoute({
    operationId: "lookupUser",
    method: "GET",
    path: "/v0/users/{sri}",
    tag: "User Lookup",
    summary: "Look up a user by resource identifier",
    description: [
      "Server API key with `idsvc.lookup` (`Authorization: Bearer idsvc_sk_…`). The SRI is the platform user id (`usr_…`); other forms answer 400 `IDS-400-001`.",
      "The fields grow with the key's scopes: `user.id` and `user.created_at` with `idsvc.lookup`; `user.identity_record` with `idsvc.get_details`; `user.kyc` with `idsvc.get_kyc`; `user.pints` (the PINT balance: the active mandates the key's organisation holds for the user) with `idsvc.get_pints`. A key only sees users of its own organisation's environments (the bootstrap organisation also sees the default environment); any other user answers 404 `IDS-404-001`, exactly like an unknown id.",
      "Or with a PINT JWT in `x-platform-pint-token` (from `POST /v0/idsvc/token/pint`; no API key needed, and it wins over `Authorization`): only the mandate's own user is found (any other SRI answers 404 `IDS-404-001`); the mandate needs `profile.read` (else 403 `IDS-403-001`) and opens `user.identity_record` with `identity.read`, `user.kyc` with `kyc.read`. A revoked mandate's token fails at once with 401 `PINT-401-006`; an invalid one 401 `PINT-401-003`, an expired one 401 `PINT-401-004`.",
    ].join("\n\n"),
    security: ["ApiKey", "PintToken"],
    params: Type.Object({ sri: Type.String({ minLength: 1, maxLength: 200 }) }),
    operation: `query LookupUser($sri: String!) { lookup: user_lookup(sri: $sri) { sri user { id created_at identity_record { ${USER_IDENTITY_RECORD_FIELDS} } kyc { ${USER_KYC_FIELDS} } pints { ${USER_PINTS_FIELDS} } } } }`,
    variables: ({ params }) => ({ sri: params.sri }),
    result: (data) => {
      if (!data.lookup.user) throw appError("IDS-404-001", "No user with this identifier is visible to this key.");
      return { sri: data.lookup.sri, user: withoutNulls(data.lookup.user) };
    },
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/users/{sri}", { sri: params.sri })) }),
    responses: {
      200: {
        description: "The user, with the fields the key's scopes grant",
        schema: Type.Object({
          sri: Type.String(),
          user: Type.Object({ id: Type.String(), created_at: EpochMs, identity_record: Type.Optional(UserIdentityRecord), kyc: Type.Optional(UserKyc), pints: Type.Optional(UserPints) }),
          _links: Links,
        }),
      },
    },
    errors: ["IDS-400-001", "IDS-403-001", "IDS-404-001"],
  }),
];
