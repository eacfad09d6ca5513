import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";

/** What an identity-service key may read of a user; the groups check their own scopes. */
const KEY_READABLE_USER_FIELDS = new Set(["id", "created_at", "identity_record", "kyc", "__typename"]);

/**
 * User lookup hands identity-service keys (and PINT tokens) a User entity. Whatever a key asks through GraphQL,
 * it reads only the lookup fields of the user: every other field (wallets, history, the
 * record's top-level fields) is refused, so scopes cannot be sidestepped by a richer query.
 * It wraps the built schema's User fields outside the lookup set, each and every one (fields added
 * later included), and nothing else: a global type-graphql middleware also wrapped every other
 * field of every answer.
 */
export function guardUserFieldsFromApiKeys(schema: GraphQLSchema): void {
  const user = schema.getType("User");
  if (!user || !("getFields" in user) || !("isTypeOf" in user)) throw new Error("the users subgraph has no User object type to guard");
  for (const field of Object.values(user.getFields())) {
    if (KEY_READABLE_USER_FIELDS.has(field.name)) continue;
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: RequestContext, info) => {
      const kind = context.principal?.kind;
      if (kind === "api_key" || kind === "pint") throw appError("IDS-403-001", `API keys cannot read User.${field.name}.`);
      return resolve(source, args, context, info);
    };
  }
}
