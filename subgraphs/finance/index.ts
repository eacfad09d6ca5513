import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import { subgraphHealth } from "../../lib/graphql/health.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import { createFinanceDb } from "./db.ts";
import { AssetResolver, FinanceUserResolver } from "./finance.resolver.ts";
import { FinanceUser } from "./types/user.ts";

export async function createFinanceSubgraph(deps: { database: Database }): Promise<Subgraph> {
  const db = createFinanceDb(deps.database);
  const health = subgraphHealth("finance", db);
  const resolvers = [FinanceUserResolver, AssetResolver, health.resolver] as const;
  const instances = new Map<unknown, unknown>(resolvers.map((R) => [R, new R(db)]));
  const schema = await buildFederatedSchema(
    { resolvers, orphanedTypes: [FinanceUser, health.type], container: { get: (someClass) => instances.get(someClass) } },
    { User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  );
  return { name: "finance", schema, start: () => {}, stop: () => db.$disconnect() };
}
