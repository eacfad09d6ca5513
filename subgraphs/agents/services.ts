import type { Logger } from "../../lib/logger.ts";
import type { AgentsDb } from "./db.ts";

/** What the agents subgraph's resolvers need, built once at start and injected. */
export interface AgentsServices {
  db: AgentsDb;
  logger: Logger;
}
