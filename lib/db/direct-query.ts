// A hot raw statement run on the process's database (the pg.Pool or PGlite) directly instead of
// through Prisma's runtime, whose handling of a result (per row and column, a large JSON column
// included) costs more CPU than the statement's own driver work. Same rows, same values.
import { tracingEnabled } from "../tracing.ts";
import type { Database } from "./queryable.ts";

/** Prisma.Sql's parts that run it: the text with $1, $2... placeholders, and their values. */
export interface RawSql {
  readonly text: string;
  readonly values: unknown[];
}

/** A subgraph's Prisma client, or one of its interactive transactions (each client's $queryRaw takes its own Prisma.Sql). */
export interface RawQueryClient {
  $queryRaw(query: never): PromiseLike<unknown>;
}

/** The database each subgraph client was made on (createSubgraphDb); an interactive transaction is not in it. */
const databases = new WeakMap<object, Database>();

export function registerClient(client: object, database: Database): void {
  databases.set(client, database);
}

/**
 * Column types whose values pg and PGlite give as Prisma's $queryRaw does: boolean, int2, int4,
 * text, json (parsed), varchar, timestamptz (a Date), uuid, jsonb. Not int8 (Prisma: a BigInt),
 * numeric (a Decimal), timestamp without time zone (pg reads it in local time) and the rest.
 */
const SAME_AS_PRISMA = new Set([16, 21, 23, 25, 114, 1043, 1184, 2950, 3802]);

/**
 * The rows of `sql`, as `client.$queryRaw(sql)` answers them. On the client's database directly,
 * unless `client` is an interactive transaction (its statements stay on its connection) or
 * tracing is on (Prisma's instrumentation makes the statement's span). Fails on a column type
 * outside SAME_AS_PRISMA, whose values would differ: cast it in SQL (::int, ::text).
 */
export async function queryRows<T>(client: RawQueryClient, sql: RawSql): Promise<T[]> {
  const database = databases.get(client);
  if (!database || tracingEnabled()) return (await client.$queryRaw(sql as never)) as T[];
  const { rows, types } = await database.queryTyped<T>(sql.text, sql.values);
  for (const type of types) if (!SAME_AS_PRISMA.has(type)) throw new Error(`queryRows: a column of type OID ${type} would not read as Prisma reads it; cast it in SQL`);
  return rows;
}
