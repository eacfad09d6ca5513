import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { DEFAULT_SECRET_OVERLAP_SECONDS, MAX_SECRET_OVERLAP_SECONDS, MAX_WEBHOOK_ENDPOINTS, type WebhookDisabledReason } from "../../../lib/contracts/events.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { PublicUrlPolicy } from "../../../lib/net/public-url.ts";
import type { IdentityDb } from "../db.ts";
import type { WebhookEndpoint as WebhookEndpointRow } from "../generated/prisma/client.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { CreateWebhookEndpointInput, RotateWebhookSecretInput, UpdateWebhookEndpointInput, WebhookEndpoint, WebhookEndpointWithSecret } from "../types/webhook-endpoint.ts";
import { checkDescription, checkEventTypes, checkWebhookUrl } from "./webhook-endpoint-input.ts";
import { newWebhookSecret } from "../../../lib/webhooks/standard-webhooks.ts";
import { rotatedSecretColumns } from "./webhook-secrets.ts";

// Webhook endpoints of an organisation environment (issue 29), beside its API keys: members read,
// owners and admins write (IDS-403-003); anyone else, and any endpoint of another organisation or
// environment, gets 404 IDS-404-001, like a missing organisation.

/** What the use cases need of the identity services: the cipher sealing secrets (CARD_DATA_KEY) and WEBHOOK_ALLOW_LOOPBACK. */
export interface WebhookEndpointServices {
  webhookSecretCipher: CardDataCipher;
  webhookUrlPolicy: PublicUrlPolicy;
}

/** An endpoint in one environment of one organisation: the path's three ids. */
export interface EndpointPath {
  org_id: string;
  env_id: string;
  endpoint_id: string;
}

type Tx = Parameters<Parameters<IdentityDb["$transaction"]>[0]>[0];

/** The row as the API shows it: never a secret, sealed or not. */
function view(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason as WebhookDisabledReason | null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function liveEnvironment(db: Pick<IdentityDb, "environment">, orgId: string, envId: string): Promise<void> {
  const row = await db.environment.findFirst({ where: { id: envId, organisation_id: orgId, deleted_at: null }, select: { id: true } });
  if (!row) throw appError("IDS-404-001", `Environment ${envId} was not found.`);
}

async function findEndpoint(db: Pick<IdentityDb, "webhookEndpoint">, path: EndpointPath): Promise<WebhookEndpointRow> {
  const row = await db.webhookEndpoint.findFirst({ where: { id: path.endpoint_id, organisation_id: path.org_id, environment_id: path.env_id, deleted_at: null } });
  if (!row) throw appError("IDS-404-001", `Webhook endpoint ${path.endpoint_id} was not found.`);
  return row;
}

/** The environment's endpoints, oldest first. */
export async function listWebhookEndpoints(db: IdentityDb, principal: DashboardPrincipal, orgId: string, envId: string): Promise<WebhookEndpoint[]> {
  await requireMembership(db, principal, orgId, "read");
  await liveEnvironment(db, orgId, envId);
  const rows = await db.webhookEndpoint.findMany({ where: { organisation_id: orgId, environment_id: envId, deleted_at: null }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return rows.map(view);
}

export async function getWebhookEndpoint(db: IdentityDb, principal: DashboardPrincipal, path: EndpointPath): Promise<WebhookEndpoint> {
  await requireMembership(db, principal, path.org_id, "read");
  await liveEnvironment(db, path.org_id, path.env_id);
  return view(await findEndpoint(db, path));
}

/**
 * Creates an endpoint with a new signing secret, answered this once. The environment's row is
 * locked while its endpoints are counted, so concurrent creations stop at MAX_WEBHOOK_ENDPOINTS
 * (409 IDS-409-003).
 */
export async function createWebhookEndpoint(
  db: IdentityDb,
  principal: DashboardPrincipal,
  orgId: string,
  envId: string,
  input: CreateWebhookEndpointInput,
  services: WebhookEndpointServices,
): Promise<WebhookEndpointWithSecret> {
  const member = await requireMembership(db, principal, orgId, "admin");
  const url = checkWebhookUrl(input.url, services.webhookUrlPolicy);
  const event_types = checkEventTypes(input.event_types);
  const description = checkDescription(input.description);
  const enabled = input.enabled ?? true;
  const secret = newWebhookSecret();
  const row = await db.$transaction(async (tx: Tx) => {
    await tx.$queryRaw`SELECT 1 FROM "identity"."environments" WHERE "id" = ${envId} AND "organisation_id" = ${orgId} AND "deleted_at" IS NULL FOR UPDATE`;
    await liveEnvironment(tx, orgId, envId);
    const count = await tx.webhookEndpoint.count({ where: { organisation_id: orgId, environment_id: envId, deleted_at: null } });
    if (count >= MAX_WEBHOOK_ENDPOINTS) throw appError("IDS-409-003", `The environment already has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most allowed; delete one first.`);
    return tx.webhookEndpoint.create({
      data: {
        id: newId("whe"),
        organisation_id: orgId,
        environment_id: envId,
        url,
        description,
        event_types,
        enabled,
        disabled_reason: enabled ? null : "user",
        secret: services.webhookSecretCipher.seal(secret),
        created_by: member.id,
      },
    });
  });
  return { ...view(row), secret };
}

/**
 * Changes the fields given. `enabled: true` enables it again and clears `disabled_reason`;
 * `enabled: false` disables an enabled endpoint with reason `user` (one disabled already keeps its reason).
 */
export async function updateWebhookEndpoint(
  db: IdentityDb,
  principal: DashboardPrincipal,
  path: EndpointPath,
  input: UpdateWebhookEndpointInput,
  services: WebhookEndpointServices,
): Promise<WebhookEndpoint> {
  await requireMembership(db, principal, path.org_id, "admin");
  const data = {
    ...(input.url != null && { url: checkWebhookUrl(input.url, services.webhookUrlPolicy) }),
    ...(input.event_types != null && { event_types: checkEventTypes(input.event_types) }),
    ...(input.description !== undefined && { description: checkDescription(input.description) }),
  };
  await liveEnvironment(db, path.org_id, path.env_id);
  return db.$transaction(async (tx: Tx) => {
    const row = await findEndpoint(tx, path);
    // enabled again: its failing run starts afresh, so it gets another five days before "failing"
    const switched =
      input.enabled === true
        ? { enabled: true, disabled_reason: null, ...(!row.enabled && { failing_since: null }) }
        : input.enabled === false && row.enabled
          ? { enabled: false, disabled_reason: "user" }
          : {};
    return view(await tx.webhookEndpoint.update({ where: { id: row.id }, data: { ...data, ...switched } }));
  });
}

/** Deletes the endpoint: nothing more is delivered to it, and what it was still owed is failed. Answers its id. */
export async function deleteWebhookEndpoint(db: IdentityDb, principal: DashboardPrincipal, path: EndpointPath): Promise<string> {
  await requireMembership(db, principal, path.org_id, "admin");
  await liveEnvironment(db, path.org_id, path.env_id);
  await db.$transaction(async (tx: Tx) => {
    // deliveries before the endpoint, the order the delivery job locks them in (no deadlock with a claim);
    // an attempt in flight keeps its answer in its attempt row, the delivery stays failed
    await tx.webhookDelivery.updateMany({ where: { endpoint_id: path.endpoint_id, status: "pending" }, data: { status: "failed", last_error: "the endpoint was deleted" } });
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: path.endpoint_id, organisation_id: path.org_id, environment_id: path.env_id, deleted_at: null },
      data: { deleted_at: new Date(), enabled: false },
    });
    // rolls the deliveries back too: another environment's endpoint keeps what it is owed
    if (count === 0) throw appError("IDS-404-001", `Webhook endpoint ${path.endpoint_id} was not found.`);
  });
  return path.endpoint_id;
}

/**
 * A new signing secret, answered this once; the current one still signs for `overlap_seconds`
 * (0 to MAX_SECRET_OVERLAP_SECONDS, default DEFAULT_SECRET_OVERLAP_SECONDS) so receivers can switch.
 */
export async function rotateWebhookSecret(
  db: IdentityDb,
  principal: DashboardPrincipal,
  path: EndpointPath,
  input: RotateWebhookSecretInput,
  services: WebhookEndpointServices,
  now: Date = new Date(),
): Promise<WebhookEndpointWithSecret> {
  await requireMembership(db, principal, path.org_id, "admin");
  const overlap = input.overlap_seconds ?? DEFAULT_SECRET_OVERLAP_SECONDS;
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SECRET_OVERLAP_SECONDS)
    throw validationError(["overlap_seconds"], `Input should be an integer from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`, overlap, "less_than_equal", { ge: 0, le: MAX_SECRET_OVERLAP_SECONDS });
  await liveEnvironment(db, path.org_id, path.env_id);
  return db.$transaction(async (tx: Tx) => {
    // two rotations at once: the second waits and keeps the first's secret as the previous one
    await tx.$queryRaw`SELECT 1 FROM "identity"."webhook_endpoints" WHERE "id" = ${path.endpoint_id} FOR UPDATE`;
    const row = await findEndpoint(tx, path);
    const { secret, columns } = rotatedSecretColumns(services.webhookSecretCipher, row, overlap, now);
    return { ...view(await tx.webhookEndpoint.update({ where: { id: row.id }, data: columns })), secret };
  });
}
