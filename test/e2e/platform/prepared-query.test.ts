import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { PreparedQuery, type TypedRows } from "../../../lib/db/prepared-query.ts";
import { PREPARED } from "../../../lib/db/prepared-statements.ts";
import { StatementBatch } from "../../../lib/db/statement-pipeline.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 30: a statement marked PREPARED runs through lib/db/prepared-query.ts on PostgreSQL,
// described once per connection instead of on every execution, its rows decoded with that
// description's parsers. Its rows must be the ones pg's own query gives, on every connection,
// after errors and after the statement's result changed. (On PGlite both paths are PGlite's.)

/** A column of every type, each once with a value and once null; types outside queryRows' set too (their decoding is pg's all the same). */
const EVERY_TYPE = `SELECT x AS n, (x = 1) AS bool, x::int2 AS int2, (x * 100000)::int4 AS int4, 'a "text" ✓ ' || x AS text,
  json_build_object('x', x, 'list', json_build_array(1, 'two', null)) AS json, ('v' || x)::varchar(20) AS varchar,
  timestamptz '2026-11-01 10:00:00.569999+00' + x * interval '1 day' AS timestamptz, md5(x::text)::uuid AS uuid,
  jsonb_build_object('y', x, 'nested', jsonb_build_object('z', true)) AS jsonb, (x * 10000000000)::int8 AS int8, (x / 3.0)::numeric(10, 4) AS numeric,
  timestamp '2026-01-01 00:00:00.5' + x * interval '1 hour' AS timestamp, date '2026-02-03' + x AS date, ARRAY['a', 'b' || x] AS text_array, '\\x00ff'::bytea AS bytea
  FROM generate_series(1, 3) x WHERE x <> $1::int
  UNION ALL SELECT 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  ORDER BY n`;
/** odd names: repeated (pg keeps the first place and the last value), `__proto__` (an own property in pg's rows), a quote, a number */
const ODD_NAMES = `SELECT 1 AS a, 2 AS "__proto__", 3 AS a, 4 AS "it's ""quoted""", 5 AS "7", $1::text AS b`;

/** pg's own rows and column types for `text`, unnamed (described on every execution) */
async function plain(queryable: pg.Pool | pg.Client, text: string, values: unknown[]): Promise<TypedRows<unknown>> {
  const result = await queryable.query(text, values);
  return { rows: result.rows, types: result.fields.map((field) => field.dataTypeID) };
}

function expectSame(actual: TypedRows<unknown>, expected: TypedRows<unknown>): void {
  expect(actual).toEqual(expected);
  // same keys in the same order, same prototypes
  expect(actual.rows.map((row) => Reflect.ownKeys(row as object))).toEqual(expected.rows.map((row) => Reflect.ownKeys(row as object)));
  expect(actual.rows.map((row) => Object.getPrototypeOf(row))).toEqual(expected.rows.map((row) => Object.getPrototypeOf(row)));
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe("a PREPARED statement through Database.queryTyped", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://" });
  });
  afterAll(() => database?.close());

  it("answers pg's own rows for every column type, null included, on every pooled connection, many at once", async () => {
    const text = PREPARED + EVERY_TYPE;
    // unmarked: pg's own query, described on every execution
    const expected = await Promise.all([0, 1, 2].map((skip) => database.queryTyped(EVERY_TYPE, [skip])));
    // more at once than the pool's connections: each connection's first execution describes, the rest use its description
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => database.queryTyped(text, [i % 3])));
      answers.forEach((answer, i) => expectSame(answer, expected[i % 3]!));
    }
    expect((await database.queryTyped(text, [0])).types).toEqual([23, 16, 21, 23, 25, 114, 1043, 1184, 2950, 3802, 20, 1700, 1114, 1082, 1009, 17]);
  });

  it("answers two statements of different shapes alternately, and after an error (the pool replaces the connection)", async () => {
    const odd = PREPARED + ODD_NAMES;
    const divide = `${PREPARED}SELECT 10 / (x - $1::int) AS q, x FROM generate_series(1, 3) x ORDER BY x`;
    for (let round = 0; round < 4; round++) {
      expect((await database.queryTyped(divide, [0])).rows).toEqual([{ q: 10, x: 1 }, { q: 5, x: 2 }, { q: 3, x: 3 }]);
      expect((await database.queryTyped(odd, [`b${round}`])).rows).toEqual(await database.query(ODD_NAMES, [`b${round}`]));
      await expect(database.queryTyped(divide, [2])).rejects.toThrow(/division by zero/);
    }
    expect((await database.queryTyped(divide, [-1])).rows).toEqual([{ q: 5, x: 1 }, { q: 3, x: 2 }, { q: 2, x: 3 }]);
  });
});

describe.skipIf(!onPostgres)("PreparedQuery on one pg connection (PostgreSQL)", () => {
  let client: pg.Client;
  /** RowDescription messages the connection received: one per described execution */
  let descriptions = 0;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: await freshDatabaseUrl() });
    await client.connect();
    (client as unknown as { connection: pg.Connection }).connection.on("rowDescription", () => descriptions++);
  });
  afterAll(() => client?.end());

  function run(name: string, text: string, values: unknown[]): Promise<TypedRows<unknown>> {
    return new Promise((resolve, reject) => {
      const query = new PreparedQuery(name, text, values, pg as never);
      query.callback = (error, result) => (error ? reject(error) : resolve(result!));
      client.query(new StatementBatch([query], (error) => error instanceof pg.DatabaseError, () => reject(new Error("nothing to retry in a batch of one"))) as never);
    });
  }
  async function described<T>(work: () => Promise<T>): Promise<{ result: T; descriptions: number }> {
    const before = descriptions;
    const result = await work();
    return { result, descriptions: descriptions - before };
  }

  it("describes a statement on its first execution only, with pg's rows every time", async () => {
    for (const [skip, describedCount] of [
      [0, 1],
      [1, 0],
      [2, 0],
      [0, 0],
    ] as const) {
      const expected = await plain(client, EVERY_TYPE, [skip]);
      const { result, descriptions: count } = await described(() => run("every_type", EVERY_TYPE, [skip]));
      expectSame(result, expected);
      expect(count).toBe(describedCount);
    }
    // pg's own execution of the same named statement still works beside it (Prisma's adapter uses the same names)
    expect((await client.query({ name: "every_type", text: EVERY_TYPE, values: [1] })).rows).toEqual((await plain(client, EVERY_TYPE, [1])).rows);
  });

  it("keeps two statements of different shapes apart on one connection, and its pg-named odd columns", async () => {
    const other = "SELECT $1::text AS b, 1 AS a";
    for (let round = 0; round < 3; round++) {
      expectSame(await run("odd", ODD_NAMES, [`r${round}`]), await plain(client, ODD_NAMES, [`r${round}`]));
      expectSame(await run("other", other, [`r${round}`]), await plain(client, other, [`r${round}`]));
    }
  });

  it("fails a statement that errs mid-rows, and the connection then runs it and others as before, describing it anew", async () => {
    const divide = "SELECT 10 / (x - $1::int) AS q, x FROM generate_series(1, 3) x ORDER BY x";
    expect((await run("divide", divide, [0])).rows).toEqual([{ q: 10, x: 1 }, { q: 5, x: 2 }, { q: 3, x: 3 }]);
    await expect(run("divide", divide, [2])).rejects.toThrow(/division by zero/);
    const again = await described(() => run("divide", divide, [-1]));
    expect(again).toEqual({ result: { rows: [{ q: 5, x: 1 }, { q: 3, x: 2 }, { q: 2, x: 3 }], types: [23, 23] }, descriptions: 1 });
    expect((await described(() => run("divide", divide, [-1]))).descriptions).toBe(0);
    expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    // a value pg cannot send fails that query alone, before anything is written
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(run("divide", divide, [circular])).rejects.toThrow(/circular/i);
    expect((await run("divide", divide, [0])).rows).toHaveLength(3);
    // a text PostgreSQL cannot parse fails alone: no statement of that name is left behind
    await expect(run("unparsed", "SELEC 1", [])).rejects.toThrow(/syntax error/);
    expect((await run("unparsed", "SELECT 1 AS one", [])).rows).toEqual([{ one: 1 }]);
  });

  it("never answers rows in a shape the statement no longer has: PostgreSQL refuses the changed result, and the next good run is described again", async () => {
    await client.query("CREATE TABLE shaped (a int, b text)");
    await client.query("INSERT INTO shaped VALUES (1, 'one')");
    const select = "SELECT * FROM shaped WHERE a >= $1";
    expect((await run("shaped", select, [0])).rows).toEqual([{ a: 1, b: "one" }]);
    expect((await described(() => run("shaped", select, [0]))).descriptions).toBe(0);
    for (const change of ["ALTER TABLE shaped ADD COLUMN c int", "ALTER TABLE shaped ALTER COLUMN b TYPE varchar(10)", "ALTER TABLE shaped RENAME COLUMN b TO bee"]) {
      await client.query(change);
      await expect(run("shaped", select, [0]), change).rejects.toThrow(/cached plan must not change result type/);
      await expect(client.query({ name: "shaped", text: select, values: [0] }), `pg's own, after ${change}`).rejects.toThrow(/cached plan must not change result type/);
    }
    // back to the statement's own result type: it answers again, described again
    await client.query("ALTER TABLE shaped DROP COLUMN c");
    await client.query("ALTER TABLE shaped ALTER COLUMN bee TYPE text");
    await client.query("ALTER TABLE shaped RENAME COLUMN bee TO b");
    const back = await described(() => run("shaped", select, [0]));
    expect(back).toEqual({ result: { rows: [{ a: 1, b: "one" }], types: [23, 25] }, descriptions: 1 });
  });

  it("refuses another text under a name already parsed, as pg does", async () => {
    await expect(run("every_type", "SELECT 1", [])).rejects.toThrow(/Prepared statements must be unique/);
    expect((await run("every_type", EVERY_TYPE, [1])).rows).toHaveLength(3);
  });
});
