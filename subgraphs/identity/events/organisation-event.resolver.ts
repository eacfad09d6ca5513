import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { FailedEventsRedelivery, OrganisationEvent, OrganisationEventDetail, RedeliverEventInput, RedeliverFailedEventsInput } from "../types/organisation-event.ts";
import { getOrganisationEvent, listOrganisationEvents } from "./organisation-events.ts";
import { redeliverEvent, redeliverFailedEvents } from "./redeliver-events.ts";

@Resolver(() => OrganisationEvent)
export class OrganisationEventResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [OrganisationEvent], { description: "GET /v0/organisation/{org_id}/events: the organisation's outgoing events, newest first." })
  organisation_events(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("offset", () => Int, { nullable: true }) offset: number | null,
    @Arg("type", () => String, { nullable: true }) type: string | null,
    @Arg("env_id", () => ID, { nullable: true }) envId: string | null,
    @Arg("resource_id", () => ID, { nullable: true }) resourceId: string | null,
    @Arg("created_after", () => Date, { nullable: true, description: "only events created strictly after this instant" }) createdAfter: Date | null,
    @Arg("created_before", () => Date, { nullable: true, description: "only events created strictly before this instant" }) createdBefore: Date | null,
    @Arg("delivery_success", () => Boolean, { nullable: true, description: "false: events with a delivery an attempt has not delivered (failed, or pending after an attempt); true: events with deliveries, all delivered" })
    deliverySuccess: boolean | null,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganisationEvent[]> {
    return listOrganisationEvents(this.services.db, requireDashboard(ctx.principal), orgId, {
      ...(limit != null && { limit }),
      ...(offset != null && { offset }),
      ...(type != null && { type }),
      ...(envId != null && { env_id: envId }),
      ...(resourceId != null && { resource_id: resourceId }),
      ...(createdAfter != null && { created_after: createdAfter }),
      ...(createdBefore != null && { created_before: createdBefore }),
      ...(deliverySuccess != null && { delivery_success: deliverySuccess }),
    });
  }

  @Query(() => OrganisationEventDetail, { description: "GET /v0/organisation/{org_id}/events/{event_id}: one of the organisation's outgoing events, with its deliveries and their attempts." })
  organisation_event(@Arg("org_id", () => ID) orgId: string, @Arg("event_id", () => ID) eventId: string, @Ctx() ctx: RequestContext): Promise<OrganisationEventDetail> {
    return getOrganisationEvent(this.services.db, requireDashboard(ctx.principal), orgId, eventId);
  }

  @Mutation(() => OrganisationEventDetail, { description: "POST /v0/organisation/{org_id}/events/{event_id}/redeliver: a fresh delivery of the event to its endpoints, or one (owners and admins)." })
  redeliver_organisation_event(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("event_id", () => ID) eventId: string,
    @Arg("input", () => RedeliverEventInput) input: RedeliverEventInput,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganisationEventDetail> {
    return redeliverEvent(this.services.db, requireDashboard(ctx.principal), orgId, eventId, input);
  }

  @Mutation(() => FailedEventsRedelivery, { description: "POST /v0/organisation/{org_id}/events/redeliver: queues again every undelivered delivery of the events since an instant (owners and admins)." })
  redeliver_failed_organisation_events(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("input", () => RedeliverFailedEventsInput) input: RedeliverFailedEventsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<FailedEventsRedelivery> {
    return redeliverFailedEvents(this.services.db, requireDashboard(ctx.principal), orgId, input);
  }
}
