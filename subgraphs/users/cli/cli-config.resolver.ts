import { Ctx, Field, ObjectType, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";

@ObjectType({ description: "CLI toggles (spec 2.7)." })
export class CliConfig {
  @Field(() => Boolean, { description: "Whether the CLI emits verbose output." })
  debug!: boolean;
}

@Resolver(() => CliConfig)
export class CliConfigResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => CliConfig, { description: "Toggles for the token's user, or deployment-wide defaults without a (valid) credential." })
  async cli_config(@Ctx() ctx: RequestContext): Promise<CliConfig> {
    // no credential, or a valid JWT whose subject has no user yet: deployment defaults
    if (ctx.principal.kind !== "user" || ctx.principal.user_id === null) return { debug: this.services.cliDebugDefault };
    const { user_id } = requireUser(ctx.principal, "read");
    const user = await this.services.db.user.findUniqueOrThrow({ where: { id: user_id }, select: { debug: true } });
    return { debug: user.debug ?? this.services.cliDebugDefault };
  }
}
