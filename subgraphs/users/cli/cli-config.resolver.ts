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

  @Query(() => CliConfig, { description: "Toggles for the token's user, or deployment-wide defaults without a credential." })
  async cli_config(@Ctx() ctx: RequestContext): Promise<CliConfig> {
    if (ctx.principal.kind === "anonymous") return { debug: this.services.cliDebugDefault };
    const { user_id } = requireUser(ctx.principal, "read");
    const user = await this.services.db.user.findUniqueOrThrow({ where: { id: user_id }, select: { debug: true } });
    return { debug: user.debug ?? this.services.cliDebugDefault };
  }
}
