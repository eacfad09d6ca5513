import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { FinanceUserResolver, AssetResolver } from "./finance.resolver.ts";
import { createFinanceDb } from "./db.ts";
import type { FinanceServices } from "./services.ts";
import { FinanceUser } from "./types/user.ts";

export const financeSubgraph = defineSubgraph({
  name: "finance",
  peers: [],
  services: ({ database, logger }): FinanceServices => ({ db: createFinanceDb(database), logger }),
  resolvers: [FinanceUserResolver, AssetResolver],
  orphanedTypes: [FinanceUser],
  // the user's own fields here are keyed on the id alone
  references: () => ({ User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } }),
});
