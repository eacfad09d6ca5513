import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { SPEC_VERSION } from "../../../lib/contracts/api-version.ts";
import { sampleEventData } from "../../../lib/contracts/event-samples.ts";
import { EVENT_TYPES, type EventType } from "../../../lib/contracts/events.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import { storeWithDeliveries } from "./event-relay.ts";
import { envelope, type OrganisationEventRecord } from "./organisation-events.ts";

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/**
 * The resource a sample is about: the type's `<resource>` part, and the sample's own id for it
 * (`<resource>_id`, else `id`, else its first `…_id`: a card authorization's event is about its card), so type and id agree.
 */
function sampleResource(type: EventType, data: Record<string, unknown>): { resource_type: string; resource_id: string } {
  const resource_type = type.split(".")[0]!;
  const key = [`${resource_type}_id`, "id", ...Object.keys(data).filter((name) => name.endsWith("_id"))].find((name) => data[name] !== undefined && data[name] !== null);
  return { resource_type, resource_id: key === undefined ? newId(resource_type.slice(0, 3)) : String(data[key]) };
}

/**
 * Sandbox only (the resolver checks): a test event of any catalogue type in an organisation
 * environment, its `data` the type's sample (its payload schema's examples; no real resource
 * changes). It is stored and fanned out to the environment's subscribed endpoints by the relay's
 * own code, in one transaction, so it is listed, delivered, retried and redelivered like any
 * event. Owners and admins (403 IDS-403-003); anyone else and an unknown or deleted environment:
 * 404 IDS-404-001.
 */
export async function emitSandboxEvent(db: IdentityDb, principal: DashboardPrincipal, orgId: string, envId: string, type: string, now = new Date()): Promise<OrganisationEventRecord> {
  await requireMembership(db, principal, orgId, "admin");
  if (!KNOWN_TYPES.has(type)) throw validationError(["type"], "Input should be an event type of the catalogue", type, "enum", { expected: EVENT_TYPES.join(", ") });
  const environment = await db.environment.findFirst({ where: { id: envId, organisation_id: orgId, deleted_at: null }, select: { id: true } });
  if (!environment) throw appError("IDS-404-001", `Environment ${envId} was not found.`);
  const data = sampleEventData(type as EventType);
  const event_id = newId("evt");
  const row = { event_id, org_id: orgId, env_id: envId, type, ...sampleResource(type as EventType, data), data, api_version: SPEC_VERSION, created_at: now };
  await db.$transaction((tx) => storeWithDeliveries(tx, [row]));
  return envelope(await db.event.findUniqueOrThrow({ where: { event_id } }));
}
