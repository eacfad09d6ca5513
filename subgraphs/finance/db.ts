import type { Database } from "../../lib/db/database.ts";
import { createSubgraphDb } from "../../lib/db/subgraph-db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type FinanceDb = PrismaClient;

export const createFinanceDb = (database: Database): FinanceDb => createSubgraphDb(database, PrismaClient);
