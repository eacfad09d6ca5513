import { generateApiKey, type EnvironmentKind } from "../../../lib/auth/api-key.ts";
import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { hashToken } from "../../../lib/auth/secret-token.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import { partitionOf } from "./scopes.ts";

type KeyRow = Awaited<ReturnType<IdentityDb["apiKey"]["findFirstOrThrow"]>>;

/** A key row as the API shows it (spec 2.6), never with its secret. */
export function apiKeyRecord(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    partition: row.partition,
    scopes: row.scopes,
    meta: { org_id: row.organisation_id, env_id: row.environment_id },
    key_prefix: row.key_prefix,
    key_last_four: row.key_last_four,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * POST /v0/organisation/{org_id}/keys: the partition comes from the scopes, the prefix shows it
 * and the environment's kind; the plaintext is returned this once and only its hash is stored.
 */
export async function mintApiKey(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { name: string; env_id: string; scopes: string[] }) {
  const member = await requireMembership(db, principal, orgId, "admin");
  const scopes = [...new Set(input.scopes)];
  const partition = partitionOf(scopes);
  const environment = await db.environment.findFirst({ where: { id: input.env_id, organisation_id: orgId, deleted_at: null } });
  if (!environment) throw appError("IDS-422-007");
  const kind: EnvironmentKind = environment.kind === "live" ? "live" : "test";
  const key = generateApiKey(partition, kind);
  const row = await db.apiKey.create({
    data: {
      id: newId("key"),
      organisation_id: orgId,
      environment_id: environment.id,
      name: input.name,
      partition,
      scopes,
      key_hash: hashToken(key),
      key_prefix: key.slice(0, key.indexOf("_", "idsvc_sk_".length) + 1 + 4),
      key_last_four: key.slice(-4),
      created_by: member.id,
    },
  });
  return { ...apiKeyRecord(row), key };
}

export async function listApiKeys(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  const rows = await db.apiKey.findMany({ where: { organisation_id: orgId }, orderBy: { created_at: "desc" } });
  return rows.map(apiKeyRecord);
}

async function findKey(db: IdentityDb, orgId: string, keyId: string) {
  const row = await db.apiKey.findFirst({ where: { id: keyId, organisation_id: orgId } });
  if (!row) throw appError("IDS-404-001", `Key ${keyId} was not found.`);
  return row;
}

export async function getApiKey(db: IdentityDb, principal: DashboardPrincipal, orgId: string, keyId: string) {
  await requireMembership(db, principal, orgId, "read");
  return apiKeyRecord(await findKey(db, orgId, keyId));
}

/** Revocation takes effect on the next request: keys are looked up on every request. */
export async function revokeApiKey(db: IdentityDb, principal: DashboardPrincipal, orgId: string, keyId: string) {
  await requireMembership(db, principal, orgId, "admin");
  const row = await findKey(db, orgId, keyId);
  if (row.revoked_at) return apiKeyRecord(row);
  return apiKeyRecord(await db.apiKey.update({ where: { id: row.id }, data: { revoked_at: new Date() } }));
}

/** The calling key itself: lets an integration check which key, partition and scopes it runs with. */
export async function currentApiKey(db: IdentityDb, keyId: string) {
  return apiKeyRecord(await db.apiKey.findUniqueOrThrow({ where: { id: keyId } }));
}
