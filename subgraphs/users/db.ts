import type { Database } from "../../lib/db/database.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { Prisma } from "./generated/prisma/client.ts";
export type UsersDb = PrismaClient;
/** A client or an interactive transaction: domain functions accept either, so they compose. */
export type UsersTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export function createUsersDb(database: Database): UsersDb {
  return new PrismaClient({ adapter: database.adapter() });
}
