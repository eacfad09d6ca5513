import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { Environment } from "../types/environment.ts";
import { createEnvironment, deleteEnvironment, getEnvironment, listEnvironments } from "./environments.ts";

@InputType()
class CreateEnvironmentInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => String, { nullable: true, description: "live or test (default)" })
  kind?: string | null;
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
    return createEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, input);
  }

  @Mutation(() => Boolean, { description: "Soft-deletes the environment and revokes its keys." })
  async delete_environment(@Arg("org_id", () => ID) orgId: string, @Arg("env_id", () => ID) envId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    await deleteEnvironment(this.services.db, requireDashboard(ctx.principal), orgId, envId);
    return true;
  }
}
