import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { JobQueue } from "../../../lib/jobs/job-queue.ts";
import { createLogger } from "../../../lib/logger.ts";
import { createUsersDb, type UsersDb } from "../../../subgraphs/users/db.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Two workers with their own connections (two "processes") share one jobs table.
let databases: Database[] = [];
let clients: UsersDb[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  const first = await openDatabase({ databaseUrl, dataDir: "memory://" });
  await applyMigrations(first, ["users"]);
  // PGlite has one connection per process, so on PGlite both workers share it
  const second = databaseUrl ? await openDatabase({ databaseUrl, dataDir: "memory://" }) : first;
  databases = databaseUrl ? [first, second] : [first];
  clients = [createUsersDb(first), createUsersDb(second)];
});
afterAll(async () => {
  for (const client of clients) await client.$disconnect();
  for (const database of databases) await database.close();
});

describe("job queue with concurrent workers", () => {
  it("runs every job exactly once (FOR UPDATE SKIP LOCKED)", async () => {
    for (let i = 0; i < 40; i++) await JobQueue.enqueue(clients[0]!, "users", { id: `job_${i}`, kind: "count", key: `key_${i}`, payload: { i } });
    const runs = new Map<string, number>();
    const workers = clients.map(
      (db) =>
        new JobQueue({
          db,
          schema: "users",
          logger: createLogger("silent"),
          batchSize: 3,
          handlers: {
            count: {
              run: async (job) => {
                runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
                await new Promise((r) => setTimeout(r, 2));
                return { outcome: "done" };
              },
            },
          },
        }),
    );
    await Promise.all(workers.map((w) => w.drain()));
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(await clients[0]!.job.count({ where: { status: "succeeded" } })).toBe(40);
  });
});
