import type { AutomationFinance } from "../../lib/automation-finance.ts";
import type { FederatedClient } from "../../lib/graphql/federated-client.ts";
import type { JobQueue } from "../../lib/jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AgentsDb } from "./db.ts";
import type { TaskKinds } from "./tasks/task-kinds.ts";
import type { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import type { ConnectorProvider } from "./connectors/connector-provider.ts";

/** What the agents subgraph's resolvers need, built once at start and injected. */
export interface AgentsServices {
  db: AgentsDb;
  logger: Logger;
  /** the users subgraph: whether a wallet is the user's (an agent token's wallet restriction) */
  users: FederatedClient;
  /** the finance subgraph's automation fields: what strategies read and move */
  finance: AutomationFinance;
  /** the agent tasks' runner */
  jobs: JobQueue;
  /** what agent tasks can do */
  taskKinds: TaskKinds;
  /** seals connector credentials (CARD_DATA_KEY) */
  cipher: CardDataCipher;
  /** the services connectors reach, by connector id: the sandbox exchange in sandbox mode */
  providers: Record<string, ConnectorProvider>;
}
