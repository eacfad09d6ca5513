import { buildSubgraph, type SubgraphDefinition } from "../lib/graphql/define-subgraph.ts";
import { FederatedClient, LocalSubgraphTransport, type SubgraphTransport } from "../lib/graphql/federated-client.ts";
import type { Subgraph } from "../lib/graphql/subgraph.ts";
import { SUBGRAPH_NAMES, type SubgraphName } from "../lib/graphql/subgraph-registry.ts";
import { agentsSubgraph } from "../subgraphs/agents/index.ts";
import { financeSubgraph } from "../subgraphs/finance/index.ts";
import { identitySubgraph } from "../subgraphs/identity/index.ts";
import { usersSubgraph, type UsersSubgraphDeps } from "../subgraphs/users/index.ts";

/** Everything any subgraph's constructor takes (the users subgraph's test hook included). */
export type SubgraphDeps = UsersSubgraphDeps;

/** Every registry row's definition (the type makes a row without one fail to compile). */
const DEFINITIONS: { [Name in SubgraphName]: SubgraphDefinition<any, any, SubgraphDeps, Name> } = {
  users: usersSubgraph,
  finance: financeSubgraph,
  identity: identitySubgraph,
  agents: agentsSubgraph,
};

/** The subgraphs `name` queries directly: split mode reaches them over HTTP. */
export function subgraphPeers(name: SubgraphName): readonly SubgraphName[] {
  return DEFINITIONS[name].peers;
}

/**
 * Builds one subgraph by name, the single place that knows every definition; `reach` says how
 * each of its peers is reached (in memory or over signed HTTP), and the subgraph queries them as itself.
 */
export function createSubgraph(name: SubgraphName, deps: SubgraphDeps, reach: (peer: SubgraphName) => SubgraphTransport): Promise<Subgraph> {
  const definition = DEFINITIONS[name];
  const peers = Object.fromEntries(definition.peers.map((peer) => [peer, new FederatedClient(peer, reach(peer), name)]));
  return buildSubgraph(definition, deps, peers);
}

/** Every subgraph in one process; peers are reached in memory, once built (a peer is only queried while serving). */
export async function createAllSubgraphs(deps: SubgraphDeps): Promise<Record<SubgraphName, Subgraph>> {
  const built: Partial<Record<SubgraphName, Subgraph>> = {};
  const reach = (peer: SubgraphName) => new LocalSubgraphTransport(() => built[peer]!.schema);
  for (const name of SUBGRAPH_NAMES) built[name] = await createSubgraph(name, deps, reach);
  return built as Record<SubgraphName, Subgraph>;
}
