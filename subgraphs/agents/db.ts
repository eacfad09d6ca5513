import type { Database } from "../../lib/db/database.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type AgentsDb = PrismaClient;

export function createAgentsDb(database: Database): AgentsDb {
  return new PrismaClient({ adapter: database.adapter() });
}
