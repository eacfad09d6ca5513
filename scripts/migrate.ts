// npm run migrate: applies the pending migrations of every migration set (each subgraph's, and
// ratelimit's) to DATABASE_URL, or to the embedded PGlite database in DATA_DIR (default ./data)
// when DATABASE_URL is unset.
import { openDatabase } from "../lib/db/database.ts";
import { applyMigrations, migrationSets } from "../lib/db/migrations.ts";

async function main(): Promise<void> {
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR || "./data" });
  try {
    const applied = await applyMigrations(db, migrationSets);
    for (const { subgraph, name } of applied) console.log(`applied ${subgraph}/${name}`);
    if (applied.length === 0) console.log("no pending migrations");
  } finally {
    await db.close();
  }
}

main().catch((error: Error & { code?: string }) => {
  // An AggregateError (every address of a host refused) has an empty message but a code.
  console.error(`migrate failed: ${error.message.split("\n")[0] || error.code || error.name}`);
  process.exit(1);
});
