import { idempotencyKeyCutoff } from "../idempotency.ts";
import { tracedWork } from "../tracing.ts";
import type { JobHandler, RawSql } from "./job-queue.ts";

/** The standing job that deletes a subgraph's expired Idempotency-Key rows. */
export const IDEMPOTENCY_KEY_PRUNE_JOB = "idempotency_key_prune";
/** Between passes: a key answers for a day, so an hour's lag keeps the table within a day and an hour. */
const PASS_MS = 3_600_000;
/** Rows deleted per statement, so one pass never holds a long transaction; a full batch runs again at once. */
const BATCH = 5_000;

/**
 * Deletes the keys past their retention (lib/idempotency.ts), oldest by the `created_at` index, a
 * batch per statement. A request may be renewing such a key at the same moment: its conditional
 * renewal then finds nothing and claims the key again (lib/db/with-idempotency.ts), so a prune
 * never makes a write run twice or fail.
 */
export async function pruneIdempotencyKeys(db: RawSql, schema: string, now = new Date(), batch = BATCH): Promise<number> {
  const table = keysTable(schema);
  return db.$executeRawUnsafe(`DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE created_at <= $1 ORDER BY created_at LIMIT $2))`, idempotencyKeyCutoff(now), batch);
}

function keysTable(schema: string): string {
  return `"${schema}"."idempotency_keys"`;
}

export function idempotencyKeyPruner(db: RawSql, schema: string): JobHandler {
  return {
    async run() {
      // a pass that finds nothing to delete stays untraced (lib/jobs/job-queue.ts: standing jobs)
      const now = new Date();
      const [{ due }] = await db.$queryRawUnsafe<{ due: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM ${keysTable(schema)} WHERE created_at <= $1) AS due`, idempotencyKeyCutoff(now));
      if (!due) return { outcome: "later", afterMs: PASS_MS };
      const deleted = await tracedWork(() => pruneIdempotencyKeys(db, schema, now));
      return { outcome: "later", afterMs: deleted >= BATCH ? 0 : PASS_MS };
    },
  };
}
