import { openDatabase } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { createAgentsDb, type AgentsDb } from "../../subgraphs/agents/db.ts";

// What the agents subgraph's integration tests share: a migrated database of their own.

/** An agents database in memory, migrated; `close` when the suite is done. */
export async function openAgentsDb(): Promise<{ db: AgentsDb; close: () => Promise<void> }> {
  const database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["agents"]);
  const db = createAgentsDb(database);
  return {
    db,
    async close() {
      await db.$disconnect();
      await database.close();
    },
  };
}
