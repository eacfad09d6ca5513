import type { Database } from "../../lib/db/database.ts";
import { createSubgraphDb, type SubgraphTx } from "../../lib/db/subgraph-db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export { Prisma } from "./generated/prisma/client.ts";
export type FinanceDb = PrismaClient;
export type FinanceTx = SubgraphTx<PrismaClient>;

export const createFinanceDb = (database: Database): FinanceDb => createSubgraphDb(database, PrismaClient);
