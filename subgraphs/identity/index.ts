import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import { createIdentityDb } from "./db.ts";
import { OrganisationResolver } from "./organisation.resolver.ts";
import { IdentityUser } from "./types/user.ts";

export async function createIdentitySubgraph(deps: { database: Database }): Promise<Subgraph> {
  const db = createIdentityDb(deps.database);
  const resolver = new OrganisationResolver(db);
  const schema = await buildFederatedSchema({ resolvers: [OrganisationResolver], orphanedTypes: [IdentityUser], container: { get: () => resolver } });
  return { name: "identity", schema, start: () => {}, stop: () => db.$disconnect() };
}
