import type { FederatedClient } from "../../lib/graphql/federated-client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { FinanceDb } from "./db.ts";
import type { AssetPrices } from "./prices/asset-prices.ts";
import type { BalanceSource } from "./balances/balance-source.ts";
import type { JobQueue } from "../../lib/jobs/job-queue.ts";
import type { GoalSource } from "./insights/goal-progress.ts";
import type { CardIssuer } from "./cards/card-issuer.ts";
import type { BankingProvider } from "./banking/banking-provider.ts";
import type { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";

/** What the finance subgraph's resolvers need, built once at start and injected. */
export interface FinanceServices {
  db: FinanceDb;
  logger: Logger;
  /** the users subgraph, asked whether a wallet is the caller's before money is booked against it */
  users: FederatedClient;
  /** USD prices of the catalogue's assets (PRICE_SOURCE), cached */
  prices: AssetPrices;
  /** wallet balances (BALANCE_SOURCE): the ledger, or the chain */
  balances: BalanceSource;
  /** SANDBOX: sandbox deposits exist */
  sandbox: boolean;
  /** the finance jobs (change events, told to insights) */
  jobs: JobQueue;
  /** CARD_ISSUER; undefined: none configured (cards answer 503) */
  cardIssuer: CardIssuer | undefined;
  /** seals and opens card numbers and CVVs (CARD_DATA_KEY) */
  /** seals card numbers and CVVs, and the banking provider's access tokens */
  cardCipher: CardDataCipher;
  /** BANKING_PROVIDER: the sandbox in sandbox mode; undefined: none, linking answers 503 BNK-503-001 */
  banking: BankingProvider | undefined;
  /** PUBLIC_BASE_URL's host, named in the card-details challenge a user signs */
  platformHost: string;
  /** savings goals for goal_progress insights: none until the agents subgraph keeps them */
  goals: GoalSource;
}
