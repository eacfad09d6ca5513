import type { GraphQLSchema } from "graphql";
import type { SubgraphName } from "./subgraph-registry.ts";

/** A built subgraph: its federated schema plus the background work it owns. */
export interface Subgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  /** starts background workers (job queues) */
  start(): void;
  stop(): Promise<void>;
}
