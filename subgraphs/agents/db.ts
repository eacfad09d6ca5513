import type { Database } from "../../lib/db/database.ts";
import { createSubgraphDb, type SubgraphTx } from "../../lib/db/subgraph-db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export { Prisma } from "./generated/prisma/client.ts";
export type AgentsDb = PrismaClient;
export type AgentsTx = SubgraphTx<PrismaClient>;

export const createAgentsDb = (database: Database): AgentsDb => createSubgraphDb(database, PrismaClient);
