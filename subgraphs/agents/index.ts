import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import { subgraphHealth } from "../../lib/graphql/health.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import { AgentsUserResolver } from "./agents.resolver.ts";
import { createAgentsDb } from "./db.ts";
import { AgentsUser } from "./types/user.ts";

export async function createAgentsSubgraph(deps: { database: Database }): Promise<Subgraph> {
  const db = createAgentsDb(deps.database);
  const health = subgraphHealth("agents", db);
  const resolvers = [AgentsUserResolver, health.resolver] as const;
  const instances = new Map<unknown, unknown>(resolvers.map((R) => [R, new R(db)]));
  const schema = await buildFederatedSchema(
    { resolvers, orphanedTypes: [AgentsUser, health.type], container: { get: (someClass) => instances.get(someClass) } },
    { User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  );
  return { name: "agents", schema, start: () => {}, stop: () => db.$disconnect() };
}
