import type { Database } from "../../lib/db/database.ts";
import { createSubgraphDb, type SubgraphTx } from "../../lib/db/subgraph-db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { Prisma } from "./generated/prisma/client.ts";
export type UsersDb = PrismaClient;
export type UsersTx = SubgraphTx<PrismaClient>;

export const createUsersDb = (database: Database): UsersDb => createSubgraphDb(database, PrismaClient);
