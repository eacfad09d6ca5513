import type { SigningKey } from "../lib/auth/signing-key.ts";
import type { Config } from "../lib/config.ts";
import type { Database } from "../lib/db/database.ts";
import type { Subgraph } from "../lib/graphql/subgraph.ts";
import type { SubgraphName } from "../lib/graphql/subgraph-registry.ts";
import type { Logger } from "../lib/logger.ts";
import type { RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { createAgentsSubgraph } from "../subgraphs/agents/index.ts";
import { createFinanceSubgraph } from "../subgraphs/finance/index.ts";
import { createIdentitySubgraph } from "../subgraphs/identity/index.ts";
import type { SafeDeployer } from "../subgraphs/users/safe/safe-deployer.ts";
import { createUsersSubgraph } from "../subgraphs/users/index.ts";

export interface SubgraphDeps {
  config: Config;
  database: Database;
  logger: Logger;
  signingKey: SigningKey;
  rateLimits: RateLimits;
  safeDeployer?: SafeDeployer;
}

/** Every registry row's constructor (the type makes a row without one fail to compile). */
const CONSTRUCTORS: Record<SubgraphName, (deps: SubgraphDeps) => Promise<Subgraph>> = {
  users: createUsersSubgraph,
  finance: createFinanceSubgraph,
  identity: createIdentitySubgraph,
  agents: createAgentsSubgraph,
};

/** Builds one subgraph by name: the single place that knows every subgraph's constructor. */
export function createSubgraph(name: SubgraphName, deps: SubgraphDeps): Promise<Subgraph> {
  return CONSTRUCTORS[name](deps);
}
