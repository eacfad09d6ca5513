import { Arg, Ctx, ID, Mutation, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { requireSandbox } from "../../../lib/sandbox.ts";
import type { IdentityServices } from "../services.ts";
import { OrganisationEvent } from "../types/organisation-event.ts";
import { emitSandboxEvent } from "./sandbox-event.ts";

@Resolver(() => OrganisationEvent)
export class SandboxEventResolver {
  constructor(private readonly services: IdentityServices) {}

  @Mutation(() => OrganisationEvent, { description: "Sandbox mode only: emits a test event of a catalogue type, with sample data, to the environment's webhook endpoints (owners and admins)." })
  sandbox_emit_event(@Arg("org_id", () => ID) orgId: string, @Arg("env_id", () => ID) envId: string, @Arg("type", () => String) type: string, @Ctx() ctx: RequestContext): Promise<OrganisationEvent> {
    const principal = requireDashboard(ctx.principal);
    requireSandbox(this.services);
    return emitSandboxEvent(this.services.db, principal, orgId, envId, type);
  }
}
