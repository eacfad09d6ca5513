import { Arg, Ctx, Directive, Field, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import type { UsersServices } from "../services.ts";
import { acknowledgeOutgoingEvents, unrelayedOutgoingEvents } from "./outgoing-events.ts";

@Directive("@inaccessible")
@ObjectType({ description: "Internal: an outgoing event in the users subgraph's outbox (issue 29), with its user's environment." })
export class UsersOutgoingEvent {
  @Field(() => String, { description: "the outbox id, increasing" })
  id!: string;

  @Field(() => String, { description: "evt_…, the stable id receivers see" })
  event_id!: string;

  @Field(() => String, { description: "a catalogue type (lib/contracts/events.ts)" })
  type!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "\"default\" or \"<org-id>:<env-id>\"" })
  environment_id!: string;

  @Field(() => String)
  resource_type!: string;

  @Field(() => String)
  resource_id!: string;

  @Field(() => JSONObjectScalar, { description: "the type's documented payload" })
  data!: Record<string, unknown>;

  @Field(() => Date)
  created_at!: Date;
}

/** Internal fields the identity service's event relay calls (as its peer): the outbox, read in order and acknowledged. */
@Resolver()
export class OutboxPeerResolver {
  constructor(private readonly services: UsersServices) {}

  @Directive("@inaccessible")
  @Query(() => [UsersOutgoingEvent], { description: "Internal (identity service): the oldest unrelayed outgoing events, in order." })
  _users_outgoing_events(@Arg("limit", () => Int) limit: number, @Ctx() ctx: RequestContext): Promise<UsersOutgoingEvent[]> {
    requireInternal(ctx.principal, "identity");
    return unrelayedOutgoingEvents(this.services.db, Math.min(Math.max(limit, 1), 500));
  }

  @Directive("@inaccessible")
  @Mutation(() => Int, { description: "Internal (identity service): marks outgoing events relayed once the relay stored them." })
  _ack_users_outgoing_events(@Arg("ids", () => [String]) ids: string[], @Ctx() ctx: RequestContext): Promise<number> {
    requireInternal(ctx.principal, "identity");
    return acknowledgeOutgoingEvents(this.services.db, ids);
  }
}
