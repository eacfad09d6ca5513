import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import { AgentsUserResolver } from "./agents.resolver.ts";
import { createAgentsDb } from "./db.ts";
import { AgentsUser } from "./types/user.ts";

export async function createAgentsSubgraph(deps: { database: Database }): Promise<Subgraph> {
  const db = createAgentsDb(deps.database);
  const resolver = new AgentsUserResolver(db);
  const schema = await buildFederatedSchema(
    { resolvers: [AgentsUserResolver], orphanedTypes: [AgentsUser], container: { get: () => resolver } },
    { User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  );
  return { name: "agents", schema, start: () => {}, stop: () => db.$disconnect() };
}
