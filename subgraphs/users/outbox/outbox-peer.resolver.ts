import { Arg, Ctx, Directive, Field, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { outboxPeerResolver } from "../../../lib/graphql/outbox-peer.ts";
import type { UsersServices } from "../services.ts";
import { userEnvironments } from "./outgoing-events.ts";

/** The users outbox's peer fields for the identity service's relay; users know their environments, so its events carry them. */
export const OutboxPeerResolver = outboxPeerResolver<UsersServices>("users", {
  table: (services) => services.db.outgoingEvent,
  environments: (services, userIds) => userEnvironments(services.db, userIds),
});

/** Most users the relay asks about at once (a batch holds at most 500 events). */
const MAX_USER_IDS = 500;

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a user's environment, for the identity service's event relay." })
export class UserEnvironment {
  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "\"default\" or \"<org-id>:<env-id>\"" })
  environment_id!: string;
}

/** Where the identity service's relay learns the environments of the users other producers' events are about. */
@Resolver()
export class UserEnvironmentsResolver {
  constructor(private readonly services: UsersServices) {}

  @Directive("@inaccessible")
  @Query(() => [UserEnvironment], { description: "Internal (identity service): the environments of these users; unknown ids are left out." })
  async _users_environments(@Arg("user_ids", () => [String]) userIds: string[], @Ctx() ctx: RequestContext): Promise<UserEnvironment[]> {
    requireInternal(ctx.principal, "identity");
    const environments = await userEnvironments(this.services.db, userIds.slice(0, MAX_USER_IDS));
    return [...environments].map(([user_id, environment_id]) => ({ user_id, environment_id }));
  }
}
