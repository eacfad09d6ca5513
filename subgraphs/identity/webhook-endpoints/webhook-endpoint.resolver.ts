import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { CreateWebhookEndpointInput, RotateWebhookSecretInput, UpdateWebhookEndpointInput, WebhookEndpoint, WebhookEndpointWithSecret } from "../types/webhook-endpoint.ts";
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint } from "./webhook-endpoints.ts";

@Resolver(() => WebhookEndpoint)
export class WebhookEndpointResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [WebhookEndpoint], { description: "The environment's webhook endpoints, oldest first (members)." })
  webhook_endpoints(@Arg("org_id", () => ID) orgId: string, @Arg("env_id", () => ID) envId: string, @Ctx() ctx: RequestContext): Promise<WebhookEndpoint[]> {
    return listWebhookEndpoints(this.services.db, requireDashboard(ctx.principal), orgId, envId);
  }

  @Query(() => WebhookEndpoint, { description: "One webhook endpoint of the environment (members)." })
  webhook_endpoint(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("endpoint_id", () => ID) endpointId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpoint> {
    return getWebhookEndpoint(this.services.db, requireDashboard(ctx.principal), { org_id: orgId, env_id: envId, endpoint_id: endpointId });
  }

  @Mutation(() => WebhookEndpointWithSecret, { description: "Creates a webhook endpoint; its signing secret is answered this once (owners and admins)." })
  create_webhook_endpoint(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("input", () => CreateWebhookEndpointInput) input: CreateWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointWithSecret> {
    return createWebhookEndpoint(this.services.db, requireDashboard(ctx.principal), orgId, envId, input, this.services);
  }

  @Mutation(() => WebhookEndpoint, { description: "Changes a webhook endpoint's URL, event types, description or enabled (owners and admins)." })
  update_webhook_endpoint(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("endpoint_id", () => ID) endpointId: string,
    @Arg("input", () => UpdateWebhookEndpointInput) input: UpdateWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpoint> {
    return updateWebhookEndpoint(this.services.db, requireDashboard(ctx.principal), { org_id: orgId, env_id: envId, endpoint_id: endpointId }, input, this.services);
  }

  @Mutation(() => ID, { description: "Deletes a webhook endpoint; answers its id (owners and admins)." })
  delete_webhook_endpoint(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("endpoint_id", () => ID) endpointId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<string> {
    return deleteWebhookEndpoint(this.services.db, requireDashboard(ctx.principal), { org_id: orgId, env_id: envId, endpoint_id: endpointId });
  }

  @Mutation(() => WebhookEndpointWithSecret, { description: "Replaces the signing secret, answered this once; the previous one still signs during the overlap (owners and admins)." })
  rotate_webhook_endpoint_secret(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("env_id", () => ID) envId: string,
    @Arg("endpoint_id", () => ID) endpointId: string,
    @Arg("input", () => RotateWebhookSecretInput) input: RotateWebhookSecretInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointWithSecret> {
    return rotateWebhookSecret(this.services.db, requireDashboard(ctx.principal), { org_id: orgId, env_id: envId, endpoint_id: endpointId }, input, this.services);
  }
}
