import type { Database } from "../../lib/db/database.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type FinanceDb = PrismaClient;

export function createFinanceDb(database: Database): FinanceDb {
  return new PrismaClient({ adapter: database.adapter() });
}
