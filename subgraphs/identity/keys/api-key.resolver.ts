import { Arg, Ctx, Directive, Field, ID, InputType, ObjectType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard, requireInternal } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { ApiKey, MintedApiKey } from "../types/api-key.ts";
import { resolveApiKey } from "./api-key-principal.ts";
import { currentApiKey, getApiKey, listApiKeys, mintApiKey, revokeApiKey } from "./api-keys.ts";

@InputType()
class MintApiKeyInput {
  @Field(() => String)
  name!: string;

  @Field(() => String)
  env_id!: string;

  @Field(() => [String], { description: "from the scope catalogue, one partition" })
  scopes!: string[];
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: the key behind a Bearer token." })
export class ResolvedApiKey {
  @Field(() => String)
  key_id!: string;

  @Field(() => String)
  org_id!: string;

  @Field(() => String)
  env_id!: string;

  @Field(() => String)
  partition!: string;

  @Field(() => [String])
  scopes!: string[];
}

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [ApiKey])
  api_keys(@Arg("org_id", () => ID) orgId: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listApiKeys(this.services.db, requireDashboard(ctx.principal), orgId);
  }

  @Query(() => ApiKey)
  api_key(@Arg("org_id", () => ID) orgId: string, @Arg("key_id", () => ID) keyId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getApiKey(this.services.db, requireDashboard(ctx.principal), orgId, keyId);
  }

  @Mutation(() => MintedApiKey)
  mint_api_key(@Arg("org_id", () => ID) orgId: string, @Arg("input", () => MintApiKeyInput) input: MintApiKeyInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    return mintApiKey(this.services.db, requireDashboard(ctx.principal), orgId, input);
  }

  @Mutation(() => ApiKey)
  revoke_api_key(@Arg("org_id", () => ID) orgId: string, @Arg("key_id", () => ID) keyId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return revokeApiKey(this.services.db, requireDashboard(ctx.principal), orgId, keyId);
  }

  @Query(() => ApiKey, { description: "The API key making the request (GET /v0/idsvc/key)." })
  current_api_key(@Ctx() ctx: RequestContext): Promise<unknown> {
    if (ctx.principal.kind !== "api_key") throw appError("IDS-401-001");
    return currentApiKey(this.services.db, ctx.principal.key_id);
  }

  @Directive("@inaccessible")
  @Query(() => ResolvedApiKey, { nullable: true, description: "Internal: the gateway resolves Bearer API keys here." })
  _principal_for_api_key(@Arg("key", () => String) key: string, @Ctx() ctx: RequestContext): Promise<ResolvedApiKey | null> {
    requireInternal(ctx.principal, "gateway");
    return resolveApiKey(this.services.db, key);
  }
}
