import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { FinanceUserResolver } from "./finance.resolver.ts";
import { AssetResolver } from "./assets/asset.resolver.ts";
import { AssetPrices } from "./prices/asset-prices.ts";
import { createPriceSource } from "./prices/create-price-source.ts";
import { createFinanceDb } from "./db.ts";
import { TransactionResolver } from "./transactions/transaction.resolver.ts";
import type { FinanceServices } from "./services.ts";
import { FinanceUser } from "./types/user.ts";

export const financeSubgraph = defineSubgraph({
  name: "finance",
  peers: ["users"],
  services: ({ config, database, logger }, peers): FinanceServices => ({ db: createFinanceDb(database), logger, users: peers.users, sandbox: config.sandbox, prices: new AssetPrices(createPriceSource(config.prices, config.chainRpcUrls), config.prices, logger) }),
  resolvers: [FinanceUserResolver, AssetResolver, TransactionResolver],
  orphanedTypes: [FinanceUser],
  // the user's own fields here are keyed on the id alone
  references: () => ({ User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } }),
});
