import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireJwt, requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { CreatedPersonalAccessToken, PersonalAccessToken } from "../types/personal-access-token.ts";
import { createPersonalAccessToken, listPersonalAccessTokens, revokePersonalAccessToken } from "./personal-access-tokens.ts";

@InputType()
class CreatePersonalAccessTokenInput {
  @Field(() => String)
  name!: string;

  @Field(() => [String], { description: "read and/or write" })
  scopes!: string[];

  @Field(() => Int, { nullable: true, description: "Lifetime in days (1-366); null never expires." })
  expires_in_days?: number | null;
}

/** Token management needs a JWT: a leaked PAT cannot mint or list more tokens. */
function requireJwtUser(ctx: RequestContext): string {
  const caller = requireJwt(ctx.principal);
  if (caller.user_id === null) throw appError("USR-404-001");
  return requireUser(caller, "write").user_id;
}

@Resolver(() => PersonalAccessToken)
export class PersonalAccessTokenResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => [PersonalAccessToken])
  personal_access_tokens(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listPersonalAccessTokens(this.services.db, requireJwtUser(ctx));
  }

  @Mutation(() => CreatedPersonalAccessToken)
  create_personal_access_token(@Arg("input", () => CreatePersonalAccessTokenInput) input: CreatePersonalAccessTokenInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    return createPersonalAccessToken(this.services.db, { user_id: requireJwtUser(ctx), ...input });
  }

  @Mutation(() => PersonalAccessToken)
  revoke_personal_access_token(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return revokePersonalAccessToken(this.services.db, { user_id: requireJwtUser(ctx), token_id: id });
  }
}
