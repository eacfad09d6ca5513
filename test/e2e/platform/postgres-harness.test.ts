// Self-test of the PostgreSQL test harness; on PGlite projects only the first check runs.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgresCluster } from "../../support/postgres.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

const databaseUrl = await freshDatabaseUrl();

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined); // a server going away must not crash the worker
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe("postgres test harness", () => {
  it("gives a database URL exactly when running on PostgreSQL", () => {
    expect(onPostgres).toBe(databaseUrl !== undefined);
  });

  it.skipIf(!onPostgres)("gives each call its own empty, writable database", async () => {
    const url = databaseUrl!;
    await query(url, "CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL)");
    await query(url, "INSERT INTO note (body) VALUES ($1)", ["hello"]);
    expect(await query(url, "SELECT id, body FROM note")).toEqual([{ id: 1, body: "hello" }]);

    const other = await freshDatabaseUrl();
    expect(other).not.toBe(url);
    const tables = await query(other!, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables).toEqual([]);
  });

  // The /health outage test needs a server it can take down and bring back.
  it.skipIf(!onPostgres)("stops and restarts a cluster on the same port and data", async () => {
    const cluster = await startPostgresCluster();
    try {
      await query(cluster.adminUrl, "CREATE TABLE kept (v int)");
      await query(cluster.adminUrl, "INSERT INTO kept VALUES (42)");

      await cluster.stop();
      await expect(query(cluster.adminUrl, "SELECT 1")).rejects.toThrow();

      await cluster.start();
      expect(await query(cluster.adminUrl, "SELECT v FROM kept")).toEqual([{ v: 42 }]);
    } finally {
      await cluster.destroy();
    }
  });
});
