import type { Database } from "./database.ts";
import { registerClient } from "./direct-query.ts";

/** A generated Prisma client class (each subgraph has its own, from prisma/<folder>/schema.prisma). */
type PrismaClientClass<Client> = new (options: { adapter: ReturnType<Database["adapter"]> }) => Client;

/** A client or an interactive transaction: domain functions accept either, so they compose. */
export type SubgraphTx<Client> = Omit<Client, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** A subgraph's Prisma client on the process's database (the shared PGlite instance or pg.Pool). */
export function createSubgraphDb<Client>(database: Database, PrismaClient: PrismaClientClass<Client>): Client {
  const client = new PrismaClient({ adapter: database.adapter() });
  // its hot raw statements may then run on the database directly (direct-query.ts)
  registerClient(client as object, database);
  return client;
}
