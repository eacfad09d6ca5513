import { isWellFormedApiKey, type KeyPartition } from "../../../lib/auth/api-key.ts";
import { hashToken } from "../../../lib/auth/secret-token.ts";
import type { IdentityDb } from "../db.ts";

/** How often a key's last_used_at is written: useful to operators, cheap on the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The key behind a Bearer token, or null when it is malformed, unknown, revoked, its environment
 * is gone, or its organisation is gone or not `active` (a suspended organisation's keys stop
 * working, and work again when it is reactivated). Looked up on every request, so revocation and
 * suspension are immediate.
 */
export async function resolveApiKey(db: IdentityDb, key: string, now = new Date()) {
  if (!isWellFormedApiKey(key)) return null;
  const row = await db.apiKey.findUnique({ where: { key_hash: hashToken(key) } });
  if (!row || row.revoked_at) return null;
  const [environment, organisation] = await Promise.all([
    db.environment.findUnique({ where: { id: row.environment_id }, select: { deleted_at: true } }),
    db.organisation.findUnique({ where: { id: row.organisation_id }, select: { status: true } }),
  ]);
  if (!environment || environment.deleted_at) return null;
  if (organisation?.status !== "active") return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: row.id }, data: { last_used_at: now } });
  }
  return { key_id: row.id, org_id: row.organisation_id, env_id: row.environment_id, partition: row.partition as KeyPartition, scopes: row.scopes };
}
