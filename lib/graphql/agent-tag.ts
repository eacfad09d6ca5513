/**
 * The one mark of a read-oriented field the agents' AgentTool surface may expose (balances,
 * transactions and their meta, budgets, insights): `@Directive(AGENT_TAG)` on the field; the
 * composed supergraph keeps it, so the agents subgraph finds the fields there.
 */
export const AGENT_TAG = '@tag(name: "agent")';
