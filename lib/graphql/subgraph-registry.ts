// The subgraph registry: the one list of subgraphs. Code generation (scripts/generate-prisma.mjs),
// migrations, configuration (<NAME>_SUBGRAPH_URL), split mode, composition and the compose-file
// test all derive from it, so adding a subgraph is one row here (plus its code under subgraphs/,
// its constructor in server/subgraphs.ts and its service in docker-compose.yml, which tests check).
// It imports nothing: the postinstall script loads it before anything else is built.

interface SubgraphRow {
  /** the subgraph's name: its federation name, split-mode service, compose service and PostgreSQL schema */
  readonly name: string;
  /** split mode: the port its service listens on by default (SUBGRAPH_PORT overrides it) */
  readonly port: number;
  /** its Prisma folder under prisma/ (schema.prisma, migrations/) */
  readonly prismaFolder: string;
}

const ROWS = [
  { name: "users", port: 4001, prismaFolder: "users" },
  { name: "finance", port: 4002, prismaFolder: "finance" },
  { name: "identity", port: 4003, prismaFolder: "identity" },
  { name: "agents", port: 4004, prismaFolder: "agents" },
] as const satisfies readonly SubgraphRow[];

export type SubgraphName = (typeof ROWS)[number]["name"];

export interface SubgraphEntry extends SubgraphRow {
  readonly name: SubgraphName;
  /** split mode: where the gateway reaches it unless <NAME>_SUBGRAPH_URL says otherwise (the compose service) */
  readonly defaultUrl: string;
  /** the environment variable overriding defaultUrl */
  readonly urlVariable: string;
}

export const SUBGRAPHS: readonly SubgraphEntry[] = ROWS.map((row) => ({
  ...row,
  defaultUrl: `http://${row.name}:${row.port}/graphql`,
  urlVariable: `${row.name.toUpperCase()}_SUBGRAPH_URL`,
}));

export const SUBGRAPH_NAMES: readonly SubgraphName[] = ROWS.map((row) => row.name);

export function isSubgraphName(name: string): name is SubgraphName {
  return (SUBGRAPH_NAMES as readonly string[]).includes(name);
}

export function subgraphEntry(name: SubgraphName): SubgraphEntry {
  return SUBGRAPHS.find((entry) => entry.name === name)!;
}
