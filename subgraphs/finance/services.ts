import type { Logger } from "../../lib/logger.ts";
import type { FinanceDb } from "./db.ts";

/** What the finance subgraph's resolvers need, built once at start and injected. */
export interface FinanceServices {
  db: FinanceDb;
  logger: Logger;
}
