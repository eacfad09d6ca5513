import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, QUERY_READ_TIMEOUT, type Database } from "../../../lib/db/database.ts";
import { PREPARED } from "../../../lib/db/prepared-statements.ts";
import { isDatabaseUnavailable } from "../../../lib/db/prisma-errors.ts";
import { startPostgresCluster, type PostgresCluster } from "../../support/postgres.ts";
import { onPostgres } from "../../support/test-database.ts";

// The deadlines of lib/db/database.ts on a PostgreSQL server of the test's own, which it freezes.
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const timeouts = { connectMs: 1_000, statementMs: 300, lockMs: 200 };
/** statement_timeout plus the process's grace (STATEMENT_GRACE_MS) */
const gaveUpAfterMs = timeouts.statementMs + 1_000;

async function failure(work: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = Date.now();
  const error = await work.then(
    () => new Error("it answered"),
    (e: Error) => e,
  );
  return { error, ms: Date.now() - started };
}

describe.skipIf(!onPostgres)("database deadlines (PostgreSQL)", () => {
  let cluster: PostgresCluster;
  let db: Database;

  it("a live server cancels a statement past DATABASE_STATEMENT_TIMEOUT_MS and a lock wait past DATABASE_LOCK_TIMEOUT_MS, both the database being unavailable", async () => {
    cluster = await startPostgresCluster();
    cleanups.push(() => cluster.destroy());
    db = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: "memory://", timeouts });
    cleanups.push(() => db.close());

    const slow = await failure(db.query("SELECT pg_sleep(5)"));
    expect(slow.error).toMatchObject({ code: "57014" });
    expect(isDatabaseUnavailable(slow.error)).toBe(true);
    expect(slow.ms).toBeLessThan(gaveUpAfterMs);

    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(42)");
      const waited = await failure(db.query("SELECT pg_advisory_lock(42)"));
      expect(waited.error).toMatchObject({ code: "55P03" });
      expect(isDatabaseUnavailable(waited.error)).toBe(true);
    });
    expect(await db.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("a frozen server is given up on after the grace, its connection closed rather than reused, and all works again once it thaws", async () => {
    // open connections in the pool, so the frozen server gets statements on them, not only connection attempts
    await Promise.all(Array.from({ length: 4 }, () => db.query("SELECT pg_sleep(0.05)")));
    // and the statement pipeline's (statement-pipeline.ts), which the PREPARED statements take
    const prepared = `${PREPARED}SELECT $1::int AS n`;
    await Promise.all(Array.from({ length: 4 }, (_, i) => db.queryTyped(prepared, [i])));
    const adapter = await db.adapter().connect();
    const tx = await adapter.startTransaction();
    cluster.freeze();
    try {
      const [plain, inTransaction, ...pipelined] = await Promise.all([
        failure(db.query("SELECT 1")),
        failure(db.transaction((tx) => tx.query("SELECT 1"))),
        ...Array.from({ length: 6 }, (_, i) => failure(db.queryTyped(prepared, [i]))),
      ]);
      for (const { error, ms } of [plain, inTransaction, ...pipelined]) {
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
        // a statement's deadline, or a connection's: never the two (a ROLLBACK queued behind the hung statement)
        expect(ms).toBeLessThan(Math.max(gaveUpAfterMs, timeouts.connectMs) + 500);
      }

      // the pipeline's connections are gone: the next statements open new ones, which the frozen
      // server accepts and never answers (pg's connect timeout, "timeout expired")
      const reopened = await Promise.all(Array.from({ length: 3 }, (_, i) => failure(db.queryTyped(prepared, [i]))));
      for (const { error, ms } of reopened) {
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
        expect(ms).toBeLessThan(timeouts.connectMs + 1_000);
      }

      // Prisma's path: its transaction's connection gives up on the statement and is closed at once, so
      // the ROLLBACK Prisma sends next fails now instead of waiting out its own deadline behind it
      const hung = await failure(tx.queryRaw({ sql: "SELECT 1", args: [], argTypes: [] }));
      expect(hung.error.message).toBe(QUERY_READ_TIMEOUT);
      expect(isDatabaseUnavailable(hung.error)).toBe(true);
      expect(hung.ms).toBeLessThan(gaveUpAfterMs + 500);
      const rollback = await failure(tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }));
      expect(rollback.ms).toBeLessThan(100);
      await tx.rollback();
    } finally {
      cluster.thaw();
    }
    // thawed, it answers again: nothing needs a restart
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => db.query<{ n: number }>("SELECT $1::int AS n", [i])));
    expect(answers.map(([row]) => row!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const preparedAnswers = await Promise.all(Array.from({ length: 12 }, (_, i) => db.queryTyped<{ n: number }>(prepared, [i])));
    expect(preparedAnswers.map(({ rows: [row] }) => row!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    await adapter.dispose();
  });
});
