import { Arg, Ctx, Field, ObjectType, Query, Resolver } from "type-graphql";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { IdentityUser } from "../types/user.ts";
import { parseSri } from "./sri.ts";

@ObjectType({ description: "A user found by resource identifier; its fields come from the users subgraph and grow with the key's scopes." })
export class UserLookup {
  @Field(() => String)
  sri!: string;

  @Field(() => IdentityUser, { nullable: true, description: "null when no user of the key's organisation has this identifier" })
  user!: { id: string } | null;
}

@Resolver(() => UserLookup)
export class UserLookupResolver {
  /**
   * GET /v0/users/{sri}: server keys with idsvc.lookup. The user is an entity reference the
   * gateway resolves in the users subgraph, which also keeps other organisations' users invisible.
   */
  /**
   * With a PINT token (x-platform-pint-token) instead: the mandate needs `profile.read`, and only
   * its own user is found (any other SRI answers like an unknown one); the users subgraph opens
   * the field groups by the mandate's scopes (identity.read, kyc.read).
   */
  @Query(() => UserLookup)
  user_lookup(@Arg("sri", () => String) sri: string, @Ctx() ctx: RequestContext): UserLookup {
    const principal = ctx.principal;
    if (principal.kind === "pint") {
      if (!principal.scopes.includes("profile.read")) throw appError("IDS-403-001", "This PINT token's mandate lacks the profile.read scope.");
      const parsed = parseSri(sri);
      return { sri, user: parsed.user_id === principal.user_id ? { id: parsed.user_id } : null };
    }
    if (principal.kind !== "api_key") throw appError("IDS-401-001");
    if (principal.partition !== "server") throw appError("IDS-403-001", "User lookup needs a server key; public keys never see user data.");
    if (!principal.scopes.includes("idsvc.lookup")) throw appError("IDS-403-001", "This API key lacks the idsvc.lookup scope.");
    const parsed = parseSri(sri);
    return { sri, user: { id: parsed.user_id } };
  }
}
