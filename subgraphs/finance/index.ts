import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { SandboxCardIssuer } from "./cards/sandbox-card-issuer.ts";
import { NO_GOALS } from "./insights/goal-progress.ts";
import { InsightResolver, InsightUserResolver } from "./insights/insight.resolver.ts";
import { insightsSubscriber } from "./insights/compute-insights.ts";
import { changeEventsHandler, CHANGE_EVENTS_JOB } from "./changes/change-events.ts";
import { CardResolver, CardUserResolver } from "./cards/card.resolver.ts";
import { CardAuthorizationResolver } from "./cards/card-authorization.resolver.ts";
import { CardSecureDetailsResolver } from "./cards/card-secure-details.resolver.ts";
import { AssetResolver } from "./assets/asset.resolver.ts";
import { BudgetResolver, BudgetUserResolver } from "./budgets/budget.resolver.ts";
import { AssetPrices } from "./prices/asset-prices.ts";
import { createPriceSource } from "./prices/create-price-source.ts";
import { createFinanceDb } from "./db.ts";
import { AccountResolver } from "./accounts/account.resolver.ts";
import { WalletAssetsResolver } from "./balances/wallet-assets.resolver.ts";
import { createBalanceSource } from "./balances/create-balance-source.ts";
import { FinanceWallet } from "./types/wallet.ts";
import { TransactionResolver } from "./transactions/transaction.resolver.ts";
import { TransactionFeedResolver, TransactionPageResolver, UserTransactionsResolver } from "./transactions/user-transactions.resolver.ts";
import type { FinanceServices } from "./services.ts";
import { FinanceUser } from "./types/user.ts";
import { SandboxBankingProvider } from "./banking/sandbox-banking-provider.ts";
import { BankAccountResolver, UserBankAccountsResolver } from "./banking/bank-account.resolver.ts";
import { BankSandboxResolver } from "./banking/bank-sandbox.resolver.ts";
import { BankingProviderEventResolver } from "./banking/banking-provider-event.resolver.ts";
import { RampResolver } from "./ramps/ramp.resolver.ts";
import { AgentsPeerResolver } from "./agents-peer/agents-peer.resolver.ts";
import { OutboxPeerResolver } from "./outbox/outbox-peer.resolver.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";
import { IDEMPOTENCY_KEY_PRUNE_JOB, idempotencyKeyPruner } from "../../lib/jobs/idempotency-key-prune.ts";

export const financeSubgraph = defineSubgraph({
  name: "finance",
  peers: ["users"],
  services: ({ config, database, logger }, peers): FinanceServices => {
    const db = createFinanceDb(database);
    const goals = NO_GOALS;
    const jobs = new JobQueue({
      db,
      schema: "finance",
      logger: logger.child({ subgraph: "finance" }),
      notifications: database,
      leaseMs: config.jobLeaseMs,
      standing: [IDEMPOTENCY_KEY_PRUNE_JOB],
      handlers: { [CHANGE_EVENTS_JOB]: changeEventsHandler([insightsSubscriber({ db, goals })]), [IDEMPOTENCY_KEY_PRUNE_JOB]: idempotencyKeyPruner(db, "finance") },
    });
    return {
      db,
      logger,
      users: peers.users,
      sandbox: config.sandbox,
      prices: new AssetPrices(createPriceSource(config.prices, config.chainRpcUrls), config.prices, logger),
      balances: createBalanceSource(db, config.balances, config.chainRpcUrls, logger),
      jobs,
      goals,
      cardIssuer: config.cardIssuer === "sandbox" ? new SandboxCardIssuer() : undefined,
      cardCipher: CardDataCipher.load(config.cardDataKey, config.dataDir),
      banking: config.sandbox
        ? new SandboxBankingProvider({ url: `${config.sandboxWebhookBaseUrl}/v0/webhooks/banking-provider/events`, secret: sandboxWebhookSecret(config.internalSecret, "banking") })
        : undefined,
      platformHost: new URL(config.publicBaseUrl).host,
    };
  },
  resolvers: [CardResolver, CardUserResolver, CardAuthorizationResolver, CardSecureDetailsResolver, AssetResolver, BudgetResolver, BudgetUserResolver, TransactionResolver, UserTransactionsResolver, TransactionFeedResolver, TransactionPageResolver, WalletAssetsResolver, AccountResolver, InsightResolver, InsightUserResolver, BankAccountResolver, UserBankAccountsResolver, BankSandboxResolver, BankingProviderEventResolver, RampResolver, AgentsPeerResolver, OutboxPeerResolver],
  orphanedTypes: [FinanceUser, FinanceWallet],
  // the references as the gateway sends them: the key, plus what `@requires` asked of the users subgraph
  references: () => ({
    User: { __resolveReference: (reference: { id: string }) => reference },
    Wallet: { __resolveReference: (reference: { id: number }) => reference },
  }),
  start: (services) => services.jobs.start(),
  stop: (services) => services.jobs.stop(),
});
