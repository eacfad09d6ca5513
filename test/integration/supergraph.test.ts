import { ApolloGateway } from "@apollo/gateway";
import { describe, expect, it } from "vitest";
import { agentSurface } from "../../gateway/agent-access.ts";
import { agentToolSchema, printAgentToolSchema, readAgentToolSchema } from "../../gateway/agent-contract.ts";
import { SUBGRAPH_NAMES } from "../../lib/graphql/subgraph-registry.ts";
import { composeCurrentSupergraph } from "../../server/compose-current.ts";
import { readSupergraph } from "../../server/supergraph.ts";

describe("gateway/supergraph.graphql", () => {
  it("is what the subgraphs compose to today (run `npm run compose` when this fails)", async () => {
    expect(readSupergraph()).toBe(await composeCurrentSupergraph());
  });

  it("keeps internal fields out of the public API and shares the User entity across subgraphs", () => {
    const sdl = readSupergraph();
    expect(sdl).toMatch(/_principal_for_jwt\([^)]*\): ResolvedPrincipal! @inaccessible/);
    for (const name of SUBGRAPH_NAMES) expect(sdl).toMatch(new RegExp(`@join__type\\(graph: ${name.toUpperCase()}, key: "id"`));
  });
});

describe("gateway/agent-tool.graphql", () => {
  it("is the AgentTool contract of the supergraph (run `npm run compose` when this fails)", async () => {
    const supergraphSdl = readSupergraph();
    const gateway = new ApolloGateway({ supergraphSdl });
    const { schema } = await gateway.load();
    await gateway.stop();
    expect(readAgentToolSchema()).toBe(printAgentToolSchema(agentToolSchema(schema, agentSurface(supergraphSdl))));
  });

  it("holds the AgentTool reads and no writes (spec 1), none of the user's secrets, token management or other changes", () => {
    const contract = readAgentToolSchema();
    for (const field of ["transactions(", "budgets:", "insights(", "accounts:", "cards:", "wallets(", "strategies(", "agent_tasks(", "user_rules:"]) expect(contract).toContain(field);
    for (const hidden of ["phone_number", "agent_tokens", "personal_access_tokens", "kyc", "secure_details", "create_card", "exchange_bank_public_token"]) expect(contract).not.toContain(hidden);
    expect(contract).not.toMatch(/type Mutation\b/);
    expect(contract).not.toMatch(/\b(enable_strategy|create_agent_task|create_user_rule|delete_user_rule)\(/);
  });

  it("keeps the agent writes in the supergraph as AgentActions of write:strategies, which the gateway lets such a token make", () => {
    const surface = agentSurface(readSupergraph());
    expect([...surface.actions].sort()).toEqual(
      ["cancel_agent_task", "create_agent_task", "create_user_rule", "delete_user_rule", "delete_user_strategy", "enable_strategy", "update_user_rule", "update_user_strategy"].map((name) => `Mutation.${name}`),
    );
    for (const action of surface.actions) expect(surface.fields.get(action), action).toEqual(["write:strategies"]);
  });
});
