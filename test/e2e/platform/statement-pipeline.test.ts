import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../../lib/db/prisma-errors.ts";
import { PreparedQuery, type TypedRows } from "../../../lib/db/prepared-query.ts";
import { StatementPipeline, WAIT_TIMEOUT } from "../../../lib/db/statement-pipeline.ts";
import { freePort } from "../../support/net.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 30: the PREPARED statements are pipelined (lib/db/statement-pipeline.ts): those asked for
// while the pipeline's connections are busy go together, behind one Sync. Each must still get its
// own rows or its own error, run exactly once, and give up as the pool does when no connection frees.

describe.skipIf(!onPostgres)("the statement pipeline (PostgreSQL)", () => {
  let url: string;
  const pipelines: StatementPipeline[] = [];
  /** the batches each pipeline's connections were given (pg Client.query calls) */
  let batches = 0;
  beforeAll(async () => {
    url = (await freshDatabaseUrl())!;
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query("CREATE SEQUENCE runs");
    await setup.end();
  });
  afterAll(async () => {
    for (const pipeline of pipelines) await pipeline.close();
  });

  function pipeline(connections: number, options: { waitMs?: number; connectionString?: string } = {}): StatementPipeline {
    const made = new StatementPipeline({
      newClient: () => {
        const client = new pg.Client({ connectionString: options.connectionString ?? url, query_timeout: 5_000, connectionTimeoutMillis: 2_000 });
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: typeof query }).query = (...args) => {
          batches++;
          return query(...args);
        };
        return client;
      },
      connections,
      waitMs: options.waitMs ?? 5_000,
      isServerError: (error) => error instanceof pg.DatabaseError,
      readTimeoutMessage: "Query read timeout",
    });
    pipelines.push(made);
    return made;
  }

  function run<T = Record<string, unknown>>(on: StatementPipeline, name: string, text: string, values: unknown[]): Promise<TypedRows<T>> {
    return on.run(new PreparedQuery<T>(name, text, values, pg as never));
  }

  async function counted<T>(work: () => Promise<T>): Promise<{ result: T; batches: number }> {
    const before = batches;
    const result = await work();
    return { result, batches: batches - before };
  }

  it("answers statements asked for together in one batch, each its own rows, as pg's own query does", async () => {
    const on = pipeline(2);
    const text = "SELECT x AS n, md5(x::text) AS hash, timestamptz '2026-11-28 10:00:00+00' + x * interval '1 hour' AS at FROM generate_series(1, $1::int) x ORDER BY x";
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const expected: unknown[] = [];
    for (let i = 0; i < 40; i++) expected.push((await client.query(text, [i % 7])).rows);
    await client.end();
    const { result, batches: used } = await counted(() => Promise.all(Array.from({ length: 40 }, (_, i) => run(on, "series", text, [i % 7]))));
    expect(result.map((answer) => answer.rows)).toEqual(expected);
    // asked for in one turn of the event loop: one batch on one connection
    expect(used).toBe(1);
  });

  it("gathers the statements asked for while its connections are busy into the next batch", async () => {
    const on = pipeline(1);
    const sleeping = run(on, "sleep", "SELECT pg_sleep($1::float8)::text AS slept", [0.2]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { result, batches: used } = await counted(async () => {
      const asked: Promise<TypedRows<{ n: number }>>[] = [];
      for (let i = 0; i < 10; i++) {
        asked.push(run(on, "n", "SELECT $1::int AS n", [i]));
        await new Promise((resolve) => setImmediate(resolve));
      }
      // the process's connection gauge (metrics.ts) counts them: one connection, busy, ten waiting
      expect([on.totalCount, on.idleCount, on.waitingCount]).toEqual([1, 0, 10]);
      return Promise.all(asked);
    });
    expect(result.map(({ rows: [row] }) => row!.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(used).toBe(1);
    expect((await sleeping).rows).toEqual([{ slept: "" }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([on.totalCount, on.idleCount, on.waitingCount]).toEqual([1, 1, 0]);
  });

  it("fails a statement that errs alone: the ones before it keep their rows, the ones behind it run once, afterwards", async () => {
    const on = pipeline(1);
    const next = "SELECT nextval('runs')::int AS run";
    const divide = "SELECT 10 / $1::int AS q";
    const asked = [run<{ run: number }>(on, "next", next, []), run(on, "divide", divide, [0]), run<{ run: number }>(on, "next", next, []), run(on, "divide", divide, [5]), run<{ run: number }>(on, "next", next, [])];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    const runs = [0, 2, 4].map((i) => (settled[i] as PromiseFulfilledResult<TypedRows<{ run: number }>>).value.rows[0]!.run);
    expect(runs).toEqual([1, 2, 3]);
    expect((settled[3] as PromiseFulfilledResult<TypedRows<{ q: number }>>).value.rows).toEqual([{ q: 2 }]);
    // the sequence moved three times: nothing ran twice, nothing was lost
    expect((await run<{ last: number }>(on, "last", "SELECT last_value::int AS last FROM runs", [])).rows).toEqual([{ last: 3 }]);
  });

  it("fails a text PostgreSQL cannot parse, and a value pg cannot send, alone in their batch", async () => {
    const on = pipeline(1);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const settled = await Promise.allSettled([
      run(on, "one", "SELECT $1::int AS one", [1]),
      run(on, "broken", "SELEC 1", []),
      run(on, "one", "SELECT $1::int AS one", [circular]),
      run(on, "one", "SELECT $1::int AS one", [2]),
      run(on, "broken", "SELECT 2 AS fixed", []),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled", "rejected"]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/syntax error/);
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/circular/i);
    expect((settled[3] as PromiseFulfilledResult<TypedRows<unknown>>).value.rows).toEqual([{ one: 2 }]);
    // a name whose Parse failed is free again, but not for another text in the same batch as its failed one
    expect((await run(on, "broken", "SELECT 2 AS fixed", [])).rows).toEqual([{ fixed: 2 }]);
  });

  it("gives up on a statement no connection frees for in time, as the pool does, and runs the next", async () => {
    const on = pipeline(1, { waitMs: 100 });
    const sleeping = run(on, "sleep", "SELECT pg_sleep($1::float8)::text AS slept", [0.6]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const waited = await run(on, "n", "SELECT $1::int AS n", [1]).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(waited?.message).toBe(WAIT_TIMEOUT);
    expect(isDatabaseUnavailable(waited)).toBe(true);
    expect(Date.now() - started).toBeLessThan(400);
    await sleeping;
    expect((await run(on, "n", "SELECT $1::int AS n", [2])).rows).toEqual([{ n: 2 }]);
  });

  it("fails its statements when the server cannot be reached, the database being unavailable", async () => {
    const on = pipeline(2, { connectionString: `postgres://app@127.0.0.1:${await freePort()}/app` });
    const settled = await Promise.allSettled(Array.from({ length: 3 }, (_, i) => run(on, "n", "SELECT $1::int AS n", [i])));
    for (const outcome of settled) {
      expect(outcome.status).toBe("rejected");
      expect(isDatabaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
  });

  it("refuses statements once closed, and fails the ones still waiting", async () => {
    const on = pipeline(1);
    expect((await run(on, "n", "SELECT $1::int AS n", [1])).rows).toEqual([{ n: 1 }]);
    await on.close();
    await expect(run(on, "n", "SELECT $1::int AS n", [2])).rejects.toThrow(/closed/);
  });
});
