import { Arg, Ctx, ID, Int, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { OrganisationEvent } from "../types/organisation-event.ts";
import { listOrganisationEvents } from "./organisation-events.ts";

@Resolver(() => OrganisationEvent)
export class OrganisationEventResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [OrganisationEvent], { description: "GET /v0/organisation/{org_id}/events: the organisation's outgoing events, newest first; none are emitted yet." })
  organisation_events(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("offset", () => Int, { nullable: true }) offset: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    return listOrganisationEvents(this.services.db, requireDashboard(ctx.principal), orgId, { ...(limit != null && { limit }), ...(offset != null && { offset }) });
  }
}
