import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { FinanceUserResolver } from "./finance.resolver.ts";
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
import { TransactionPageResolver, UserTransactionsResolver } from "./transactions/user-transactions.resolver.ts";
import type { FinanceServices } from "./services.ts";
import { FinanceUser } from "./types/user.ts";

export const financeSubgraph = defineSubgraph({
  name: "finance",
  peers: ["users"],
  services: ({ config, database, logger }, peers): FinanceServices => {
    const db = createFinanceDb(database);
    return {
      db,
      logger,
      users: peers.users,
      sandbox: config.sandbox,
      prices: new AssetPrices(createPriceSource(config.prices, config.chainRpcUrls), config.prices, logger),
      balances: createBalanceSource(db, config.balances, config.chainRpcUrls, logger),
    };
  },
  resolvers: [FinanceUserResolver, AssetResolver, BudgetResolver, BudgetUserResolver, TransactionResolver, UserTransactionsResolver, TransactionPageResolver, WalletAssetsResolver, AccountResolver],
  orphanedTypes: [FinanceUser, FinanceWallet],
  // the references as the gateway sends them: the key, plus what `@requires` asked of the users subgraph
  references: () => ({
    User: { __resolveReference: (reference: { id: string }) => reference },
    Wallet: { __resolveReference: (reference: { id: number }) => reference },
  }),
});
