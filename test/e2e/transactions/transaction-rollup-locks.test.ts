import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations, migrationSets } from "../../../lib/db/migrations.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// The rollups' triggers take a transaction's monthly rollup row before its total row, whether
// they add or remove the transaction: in the other order, a status move and a new transaction of the
// same user, month and group in two concurrent transactions could deadlock. Row locks are
// PostgreSQL's: PGlite (one connection) skips this file.

let url: string;
let database: Database;

describe.skipIf(!onPostgres)("transaction rollups' lock order (PostgreSQL)", () => {
  beforeAll(async () => {
    url = (await freshDatabaseUrl())!;
    database = await openDatabase({ databaseUrl: url, dataDir: "memory://" });
    await applyMigrations(database, migrationSets);
    for (const statement of feedSeedStatements({ user_id: "usr_locks", count: 200, wallet_ids: [1], id_prefix: "locks" })) await database.exec(statement);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("a status move waits for the monthly row before it takes the total row", async () => {
    const [row] = await database.query<{ id: string; month: Date; direction: string; category: string; status: string }>(
      `SELECT id, date_trunc('month', "timestamp", 'UTC') AS month, direction, coalesce(category, '') AS category, status
       FROM finance.transactions WHERE user_id = 'usr_locks' AND status = 'completed' ORDER BY id LIMIT 1`,
    );
    const group = [row!.direction, row!.category, row!.status];
    const [holder, mover, prober] = [new pg.Client(url), new pg.Client(url), new pg.Client(url)];
    await Promise.all([holder.connect(), mover.connect(), prober.connect()]);
    try {
      await holder.query("BEGIN");
      await holder.query(
        `SELECT 1 FROM finance.transaction_rollups WHERE user_id = 'usr_locks' AND month = $1 AND direction = $2 AND category = $3 AND status = $4 FOR UPDATE`,
        [row!.month, ...group],
      );
      const moverPid = (await mover.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const moved = mover.query(`UPDATE finance.transactions SET status = 'failed' WHERE id = $1`, [row!.id]);
      // until the move waits on the held monthly row
      for (let waiting = false; !waiting; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [activity] = (await prober.query<{ wait_event_type: string | null }>("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [moverPid])).rows;
        waiting = activity?.wait_event_type === "Lock";
      }
      // the total row is still free: the waiting move holds no lock a new transaction of the group needs first
      await prober.query("BEGIN");
      const total = await prober.query(
        `SELECT n FROM finance.transaction_totals WHERE user_id = 'usr_locks' AND direction = $1 AND category = $2 AND status = $3 FOR UPDATE NOWAIT`,
        group,
      );
      expect(total.rows).toHaveLength(1);
      await prober.query("ROLLBACK");
      await holder.query("ROLLBACK");
      await moved;
    } finally {
      await Promise.all([holder.end(), mover.end(), prober.end()]);
    }
  });
});
