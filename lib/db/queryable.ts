// What a database is to its users (the subgraphs' clients, the migration runner, the rate-limit
// store), apart from how database.ts opens one, so the runner does not import the opener it serves.
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import type { Notifications } from "./notifications.ts";

export interface Queryable {
  /** raw parameterised query ($1, $2...) returning rows */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** run several statements (a migration script) */
  exec(sql: string): Promise<void>;
}

/** `listen`: LISTEN/NOTIFY (notifications.ts), on a connection of its own on PostgreSQL. */
export interface Database extends Queryable, Notifications {
  readonly kind: "pglite" | "postgres";
  /** a Prisma driver adapter factory to pass as `new PrismaClient({ adapter })`; all subgraph clients in one process share the same underlying PGlite instance or pg.Pool */
  adapter(): SqlDriverAdapterFactory;
  /**
   * `query` with the columns' type OIDs beside the rows, for a hot read run outside Prisma's
   * runtime (direct-query.ts). Reads only: on PostgreSQL a statement marked PREPARED
   * (prepared-statements.ts) runs under the name Prisma's adapter gives it, pipelined with others
   * in one implicit transaction (statement-pipeline.ts), where a write could be rolled back after
   * it was answered.
   */
  queryTyped<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<{ rows: T[]; types: number[] }>;
  /**
   * run `fn` on one connection inside BEGIN/COMMIT; rolled back when it throws. `unbounded`: on a
   * connection of its own without the deadlines (DatabaseTimeouts), for schema migrations, which
   * may rightly run long and wait for another instance's
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: { unbounded?: boolean }): Promise<T>;
  close(): Promise<void>;
}
