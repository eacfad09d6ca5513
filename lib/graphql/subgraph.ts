import type { GraphQLSchema } from "graphql";

export const SUBGRAPH_NAMES = ["users", "finance", "identity", "agents"] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

/** A built subgraph: its federated schema plus the background work it owns. */
export interface Subgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  /** starts background workers (job queues) */
  start(): void;
  stop(): Promise<void>;
}
