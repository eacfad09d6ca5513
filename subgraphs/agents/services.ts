import type { FederatedClient } from "../../lib/graphql/federated-client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AgentsDb } from "./db.ts";

/** What the agents subgraph's resolvers need, built once at start and injected. */
export interface AgentsServices {
  db: AgentsDb;
  logger: Logger;
  /** the users subgraph: whether a wallet is the user's (an agent token's wallet restriction) */
  users: FederatedClient;
}
