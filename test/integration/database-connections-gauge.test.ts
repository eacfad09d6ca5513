import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { registry } from "../../lib/metrics.ts";

/** platform_db_pool_connections by state, as a scrape would read it. */
async function connections(): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric("platform_db_pool_connections")!.get();
  return Object.fromEntries(metric.values.map(({ labels, value }) => [String(labels.state), value]));
}

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe("platform_db_pool_connections on the embedded database (PGlite)", () => {
  it("counts its one connection: idle, in use by a transaction, and the queries queued behind it", async () => {
    database = await openDatabase({ dataDir: "memory://" });
    expect(await connections()).toEqual({ total: 1, idle: 1, waiting: 0 });

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const transaction = database.transaction(async (tx) => {
      await tx.query("SELECT 1");
      entered();
      await held;
    });
    await inside;
    const queued = database.query("SELECT 2 AS two");
    // PGlite's query() checks it is ready before it queues for the lock
    await new Promise((resolve) => setImmediate(resolve));
    const whileHeld = await connections();
    release();
    await transaction;
    expect(whileHeld).toEqual({ total: 1, idle: 0, waiting: 1 });
    expect(await queued).toEqual([{ two: 2 }]);
    expect(await connections()).toEqual({ total: 1, idle: 1, waiting: 0 });

    // Prisma's adapter goes through the same connection
    const adapter = await database.adapter().connect();
    const prismaTransaction = await adapter.startTransaction();
    expect(await connections()).toEqual({ total: 1, idle: 0, waiting: 0 });
    await prismaTransaction.commit();
    expect(await connections()).toEqual({ total: 1, idle: 1, waiting: 0 });
  });

  it("drops a closed database from the count", async () => {
    const closed = await openDatabase({ dataDir: "memory://" });
    await closed.close();
    expect(await connections()).toEqual({ total: 0, idle: 0, waiting: 0 });
  });
});
