import { Arg, Ctx, Directive, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireDashboard, requireInternal } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import type { IdentityServices } from "../services.ts";
import type { EnvironmentKind } from "../../../lib/auth/api-key.ts";
import { EnvironmentKindEnum } from "../types/enums.ts";
import { Environment } from "../types/environment.ts";
import { createEnvironment, deleteEnvironment, environmentAuth, getEnvironment, listEnvironments, updateEnvironment } from "./environments.ts";

const AUTH_PROVIDERS_DESCRIPTION =
  "The identity providers the environment's users sign in with, shaped like AUTH_PROVIDERS: {name: provider_a | provider_b | siwe, issuer, jwks_uri or public_key (a siwe entry without keys uses the platform signing key), audience, mode: app_id_only}";

@InputType()
class CreateEnvironmentInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => EnvironmentKindEnum, { nullable: true, description: "live or test (default)" })
  kind?: EnvironmentKind | null;

  @Field(() => [JSONObjectScalar], { nullable: true, description: `${AUTH_PROVIDERS_DESCRIPTION}; none by default` })
  auth_providers?: Record<string, unknown>[] | null;

  @Field(() => Boolean, { nullable: true, description: "false: no JWT is accepted for the environment (default true)" })
  auth_is_active?: boolean | null;
}

@InputType()
class UpdateEnvironmentInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => [JSONObjectScalar], { nullable: true, description: `${AUTH_PROVIDERS_DESCRIPTION}; replaces the whole list` })
  auth_providers?: Record<string, unknown>[] | null;

  @Field(() => Boolean, { nullable: true })
  auth_is_active?: boolean | null;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: where x-platform-orgid resolves, the environment's active providers." })
export class ResolvedEnvironmentAuth {
  @Field(() => String, { description: "<org_id>:<env_id>, the scope of the environment's users" })
  environment_id!: string;

  @Field(() => [JSONObjectScalar], { description: "AUTH_PROVIDERS-shaped entries" })
  providers!: Record<string, unknown>[];
}

@Resolver(() => Environment)
export class EnvironmentResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [Environment])
  environments(@Arg("org_id", () => ID) orgId: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listEnvironments(this.services.db, requireDashboard(ctx.principal), orgId);
  }

  @Query(() => Environment)
  environment(@Arg("org_id", () => ID) orgId: string, @Arg("env_id", () => ID) envId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, envId);
  }

  @Mutation(() => Environment)
  create_environment(@Arg("org_id", () => ID) orgId: string, @Arg("input", () => CreateEnvironmentInput) input: CreateEnvironmentInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    return createEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, input, this.services);
  }

  @Mutation(() => Environment, { description: "Renames the environment or sets its identity providers (owners and admins)." })
  update_environment(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("input", () => UpdateEnvironmentInput) input: UpdateEnvironmentInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return updateEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, envId, input, this.services);
  }

  @Directive("@inaccessible")
  @Query(() => ResolvedEnvironmentAuth, {
    nullable: true,
    description: "Internal: the gateway resolves x-platform-orgid here; null for an unknown, deleted or auth-inactive environment.",
  })
  async _environment_auth(@Arg("org_id", () => String) orgId: string, @Arg("env_id", () => String) envId: string, @Ctx() ctx: RequestContext): Promise<ResolvedEnvironmentAuth | null> {
    requireInternal(ctx.principal, "gateway");
    const resolved = await environmentAuth(this.services.db, orgId, envId, this.services, this.services.logger);
    return resolved && { environment_id: resolved.environment_id, providers: resolved.providers as unknown as Record<string, unknown>[] };
  }

  @Mutation(() => Boolean, { description: "Soft-deletes the environment and revokes its keys." })
  async delete_environment(@Arg("org_id", () => ID) orgId: string, @Arg("env_id", () => ID) envId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    await deleteEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, envId);
    return true;
  }
}
