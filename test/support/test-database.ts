// Where a test file's data lives: its own PostgreSQL database in the e2e-postgres project,
// embedded in-memory PGlite (undefined URL) everywhere else.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

// Provided only by test/support/postgres-global-setup.ts; other projects leave it unset.
const adminUrl = inject("postgresAdminUrl") as string | undefined;

export const onPostgres: boolean = Boolean(adminUrl);

/** A new, empty database (random name) on the shared cluster, or undefined for PGlite. */
export async function freshDatabaseUrl(): Promise<string | undefined> {
  if (!adminUrl) return undefined;
  const name = `test_${randomBytes(8).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
