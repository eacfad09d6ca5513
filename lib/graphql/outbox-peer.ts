import { Arg, Ctx, Directive, Field, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal } from "../auth/authorize.ts";
import type { OutboxProducer } from "../outgoing-events.ts";
import { acknowledgeOutgoingEvents, unrelayedOutgoingEvents, type OutboxTable, type OutgoingEventView } from "../outgoing-events-outbox.ts";
import type { RequestContext } from "./context.ts";
import type { ResolverClass } from "./define-subgraph.ts";
import { JSONObjectScalar } from "./scalars.ts";

export interface OutboxPeerOptions<Services> {
  /** the producer's outbox delegate (`services.db.outgoingEvent`) */
  table(services: Services): OutboxTable;
  /**
   * The environments of these users, for the producer that owns them (users). Without it events
   * answer environment_id null, and the relay asks the users subgraph.
   */
  environments?(services: Services, userIds: string[]): Promise<Map<string, string>>;
}

/**
 * A producer's internal peer fields for the identity service's event relay (issue 29), the same
 * in every producer: `_<producer>_outgoing_events(limit)` (the oldest unrelayed events, in order)
 * and `_ack_<producer>_outgoing_events(ids)`, both @inaccessible and for identity's internal
 * principal only. The shape lib/outgoing-events.ts's `peerOutbox` reads.
 */
export function outboxPeerResolver<Services>(producer: OutboxProducer, options: OutboxPeerOptions<Services>): ResolverClass<Services> {
  const typeName = `${producer[0]!.toUpperCase()}${producer.slice(1)}OutgoingEvent`;

  @Directive("@inaccessible")
  @ObjectType(typeName, { description: `Internal: an outgoing event in the ${producer} subgraph's outbox (issue 29).` })
  class OutgoingEvent implements OutgoingEventView {
    @Field(() => String, { description: "the outbox id, increasing" })
    id!: string;

    @Field(() => String, { description: "evt_…, the stable id receivers see" })
    event_id!: string;

    @Field(() => String, { description: "a catalogue type (lib/contracts/events.ts)" })
    type!: string;

    @Field(() => String)
    user_id!: string;

    @Field(() => String, { nullable: true, description: "\"default\" or \"<org-id>:<env-id>\"; null when this subgraph does not know the user's environment" })
    environment_id!: string | null;

    @Field(() => String)
    resource_type!: string;

    @Field(() => String)
    resource_id!: string;

    @Field(() => JSONObjectScalar, { description: "the type's documented payload" })
    data!: Record<string, unknown>;

    @Field(() => Date)
    created_at!: Date;
  }

  @Resolver()
  class OutboxPeerResolver {
    constructor(readonly services: Services) {}

    @Directive("@inaccessible")
    @Query(() => [OutgoingEvent], { name: `_${producer}_outgoing_events`, description: "Internal (identity service): the oldest unrelayed outgoing events, in order." })
    async events(@Arg("limit", () => Int) limit: number, @Ctx() ctx: RequestContext): Promise<OutgoingEventView[]> {
      requireInternal(ctx.principal, "identity");
      const events = await unrelayedOutgoingEvents(options.table(this.services), Math.min(Math.max(limit, 1), 500));
      if (!options.environments || events.length === 0) return events;
      const environments = await options.environments(this.services, [...new Set(events.map((event) => event.user_id))]);
      return events.map((event) => ({ ...event, environment_id: environments.get(event.user_id) ?? null }));
    }

    @Directive("@inaccessible")
    @Mutation(() => Int, { name: `_ack_${producer}_outgoing_events`, description: "Internal (identity service): marks outgoing events relayed once the relay stored them." })
    acknowledge(@Arg("ids", () => [String]) ids: string[], @Ctx() ctx: RequestContext): Promise<number> {
      requireInternal(ctx.principal, "identity");
      return acknowledgeOutgoingEvents(options.table(this.services), ids);
    }
  }

  return OutboxPeerResolver;
}
