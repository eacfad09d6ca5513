import { Arg, Ctx, ID, Int, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { OrganisationEvent } from "../types/organisation-event.ts";
import { getOrganisationEvent, listOrganisationEvents } from "./organisation-events.ts";

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
    @Ctx() ctx: RequestContext,
  ): Promise<OrganisationEvent[]> {
    return listOrganisationEvents(this.services.db, requireDashboard(ctx.principal), orgId, {
      ...(limit != null && { limit }),
      ...(offset != null && { offset }),
      ...(type != null && { type }),
      ...(envId != null && { env_id: envId }),
    });
  }

  @Query(() => OrganisationEvent, { description: "GET /v0/organisation/{org_id}/events/{event_id}: one of the organisation's outgoing events." })
  organisation_event(@Arg("org_id", () => ID) orgId: string, @Arg("event_id", () => ID) eventId: string, @Ctx() ctx: RequestContext): Promise<OrganisationEvent> {
    return getOrganisationEvent(this.services.db, requireDashboard(ctx.principal), orgId, eventId);
  }
}
