import type { GraphQLSchema } from "graphql";
import type { SigningKey } from "../auth/signing-key.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Logger } from "../logger.ts";
import type { RateLimits } from "../rate-limit/rate-limits.ts";
import { buildFederatedSchema, type ReferenceResolvers } from "./federation.ts";
import type { FederatedClient } from "./federated-client.ts";
import { subgraphHealth, type PingableDatabase, type SubgraphHealth } from "./health.ts";
import type { Subgraph } from "./subgraph.ts";
import type { SubgraphName } from "./subgraph-registry.ts";

/** What the platform hands every subgraph at start, in one process and in split mode alike. */
export interface PlatformDeps {
  config: Config;
  database: Database;
  logger: Logger;
  signingKey: SigningKey;
  rateLimits: RateLimits;
}

/** What every subgraph's services hold at least: its own database client, checked by /health and closed on stop. */
export interface BaseServices {
  db: PingableDatabase & { $disconnect(): Promise<void> };
}

/** A subgraph's peers by name: the other subgraphs it queries, each through one federated client. */
export type Peers<Peer extends SubgraphName> = { readonly [P in Peer]: FederatedClient };

/** A resolver class: the kit constructs each once, with the subgraph's services. */
export type ResolverClass<Services> = new (services: Services) => object;

/**
 * One subgraph, described as data: the peers it queries, how its services are built from the
 * platform's dependencies and those peers, its resolvers (each constructed with the services),
 * orphaned types, entity reference resolvers and lifecycle hooks. `buildSubgraph` turns it into
 * a served schema the same way for every subgraph; server/subgraphs.ts lists the definitions.
 */
export interface SubgraphDefinition<Services extends BaseServices, Peer extends SubgraphName = never, Deps extends PlatformDeps = PlatformDeps, Name extends SubgraphName = SubgraphName> {
  /** its registry row (lib/graphql/subgraph-registry.ts) */
  name: Name;
  /** the subgraphs it queries directly (outside the gateway's plans); handed to `services` as clients */
  peers: readonly Peer[];
  services(deps: Deps, peers: Peers<Peer>): Services | Promise<Services>;
  resolvers: readonly ResolverClass<Services>[];
  /** types no resolver returns but the schema must hold (entity stubs extended from other subgraphs) */
  orphanedTypes?: readonly Function[];
  /** `__resolveReference` per entity this subgraph contributes fields to */
  references?(services: Services): ReferenceResolvers;
  /** wraps the built schema's resolvers of the fields a check must precede (only those fields pay for it) */
  guardSchema?(schema: GraphQLSchema): void;
  /** its part of the Health entity; by default `Health.<name>`, its database's check */
  health?(services: Services): SubgraphHealth;
  /** runs once after the schema is built, before anything is served (bootstrap, data repairs) */
  prepare?(services: Services): Promise<void>;
  /** starts background work (job queues) */
  start?(services: Services): void;
  /** stops background work; the kit closes the database afterwards */
  stop?(services: Services): Promise<void>;
}

/** A built subgraph with the services its resolvers share (tests reach its database through them). */
export interface BuiltSubgraph<Services> extends Subgraph {
  services: Services;
}

/** Keeps a definition's services, peers and dependencies tied together in its types. */
export function defineSubgraph<Services extends BaseServices, Peer extends SubgraphName = never, Deps extends PlatformDeps = PlatformDeps, Name extends SubgraphName = SubgraphName>(
  definition: SubgraphDefinition<Services, Peer, Deps, Name>,
): SubgraphDefinition<Services, Peer, Deps, Name> {
  return definition;
}

export async function buildSubgraph<Services extends BaseServices, Peer extends SubgraphName, Deps extends PlatformDeps>(
  definition: SubgraphDefinition<Services, Peer, Deps>,
  deps: Deps,
  peers: Peers<Peer>,
): Promise<BuiltSubgraph<Services>> {
  const services = await definition.services(deps, peers);
  const health = definition.health?.(services) ?? subgraphHealth(definition.name, services.db);
  const resolvers = [...definition.resolvers, ...health.resolvers] as unknown as [Function, ...Function[]];
  const instances = new Map<unknown, unknown>(resolvers.map((Resolver) => [Resolver, new (Resolver as ResolverClass<Services>)(services)]));
  const schema = await buildFederatedSchema(
    {
      resolvers,
      orphanedTypes: [...(definition.orphanedTypes ?? []), health.type],
      container: { get: (someClass) => instances.get(someClass) },
    },
    definition.references?.(services),
  );
  definition.guardSchema?.(schema);
  await definition.prepare?.(services);
  return {
    name: definition.name,
    schema,
    services,
    start: () => definition.start?.(services),
    stop: async () => {
      await definition.stop?.(services);
      await services.db.$disconnect();
    },
  };
}
