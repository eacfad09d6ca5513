import type { Database } from "../../lib/db/database.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type IdentityDb = PrismaClient;

export function createIdentityDb(database: Database): IdentityDb {
  return new PrismaClient({ adapter: database.adapter() });
}
