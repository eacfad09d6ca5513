import type { Database } from "../../lib/db/database.ts";
import { createSubgraphDb } from "../../lib/db/subgraph-db.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type IdentityDb = PrismaClient;

export const createIdentityDb = (database: Database): IdentityDb => createSubgraphDb(database, PrismaClient);
