import { ApolloGateway } from "@apollo/gateway";
import { buildSchema, parse, type GraphQLSchema } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { agentRequirement, agentSurface, missingScope, type AgentSurface } from "../../gateway/agent-access.ts";
import { AGENT_TOKEN_SCOPES } from "../../lib/vocabulary/agents.ts";
import { exampleRequest } from "../../rest-adapter/route-kit/tool-request.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";
import { isOperationRoute } from "../../rest-adapter/route-kit/route.ts";
import { compileValidator } from "../../lib/json-validation.ts";
import { readSupergraph } from "../../server/supergraph.ts";

const SDL = `
  type Query {
    transactions: Page @tag(name: "agent") @tag(name: "agent_scope:read:transactions") @tag(name: "agent_wallets")
    me: User @tag(name: "agent") @tag(name: "agent_scope:read:transactions") @tag(name: "agent_scope:read:balances")
    secrets: String
    untagged_scope: String @tag(name: "agent")
  }
  type Page @tag(name: "agent") { total: Int }
  type User { id: ID @tag(name: "agent") phone_number: String balances: String @tag(name: "agent") @tag(name: "agent_scope:read:balances") }
`;
const schema = buildSchema(SDL.replaceAll(/@tag\(name: "[^"]+"\)/g, ""));
const surface = agentSurface(`directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT\n${SDL}`);
const requirement = (query: string) => agentRequirement(schema, surface, parse(query));
const refusal = (query: string, scopes: (typeof AGENT_TOKEN_SCOPES)[number][]) => missingScope(requirement(query), scopes)?.code;

describe("agentRequirement: agents select AgentTool fields within their scopes, nothing else", () => {
  it("lets a token with the field's scope through, and any field of an AgentTool type", () => {
    expect(refusal("{ transactions { total __typename } }", ["read:transactions"])).toBeUndefined();
  });

  it("refuses a token without the scope with AGT-403-001; any one of a field's scopes will do", () => {
    expect(refusal("{ transactions { total } }", ["read:balances"])).toBe("AGT-403-001");
    expect(refusal("{ me { id } }", ["read:balances"])).toBeUndefined();
    expect(refusal("{ me { id balances } }", ["read:transactions"])).toBe("AGT-403-001");
  });

  it("refuses fields outside the surface with AGT-403-002, also inside fragments and whatever the scopes", () => {
    const all = [...AGENT_TOKEN_SCOPES];
    expect(refusal("{ secrets }", all)).toBe("AGT-403-002");
    expect(refusal("{ me { id phone_number } }", all)).toBe("AGT-403-002");
    expect(refusal("{ me { ...F } } fragment F on User { phone_number }", all)).toBe("AGT-403-002");
    expect(refusal("{ __schema { types { name } } }", all)).toBe("AGT-403-002");
  });

  it("lets a token restricted to some wallets reach only fields that narrow to them (AGT-403-003 elsewhere)", () => {
    const restricted = (query: string) => missingScope(requirement(query), ["read:transactions", "read:balances"], true)?.code;
    expect(restricted("{ transactions { total } }")).toBeUndefined();
    expect(restricted("{ me { id } }")).toBe("AGT-403-003");
    expect(restricted("{ transactions { total } me { id } }")).toBe("AGT-403-003");
    expect(missingScope(requirement("{ me { id } }"), ["read:balances"], false)).toBeUndefined();
  });

  it("refuses a root field that names no scope, even where it is tagged", () => {
    expect(refusal("{ untagged_scope }", [...AGENT_TOKEN_SCOPES])).toBe("AGT-403-002");
  });

  it("refuses a scope tag outside spec 2.10's list when the supergraph is read", () => {
    expect(() => agentSurface('type Query { x: Int @tag(name: "agent") @tag(name: "agent_scope:read:everything") }')).toThrow(/read:everything/);
  });
});

describe("AgentTool reads, AgentAction writes", () => {
  const WRITES = `
    type Query { transactions: Int @tag(name: "agent") @tag(name: "agent_scope:read:transactions") }
    type Mutation { enable: Int @tag(name: "agent_action") @tag(name: "agent_scope:write:strategies") secret: Int }
  `;
  const writes = agentSurface(WRITES);
  const writeSchema = buildSchema(WRITES.replaceAll(/@tag\(name: "[^"]+"\)/g, ""));
  const writeRefusal = (query: string, scopes: (typeof AGENT_TOKEN_SCOPES)[number][]) => missingScope(agentRequirement(writeSchema, writes, parse(query)), scopes)?.code;

  it("lets a token holding an AgentAction's write scope make it, and nothing else", () => {
    expect([...writes.actions]).toEqual(["Mutation.enable"]);
    expect(writeRefusal("mutation { enable }", ["write:strategies"])).toBeUndefined();
    expect(writeRefusal("mutation { enable }", ["read:transactions", "read:balances", "write:transfers"])).toBe("AGT-403-001");
    expect(writeRefusal("mutation { secret }", [...AGENT_TOKEN_SCOPES])).toBe("AGT-403-002");
  });

  it("refuses a supergraph that tags a mutation as an AgentTool", () => {
    expect(() => agentSurface('type Mutation { x: Int @tag(name: "agent") @tag(name: "agent_scope:read:transactions") }')).toThrow(/AgentTool fields are reads/);
  });

  it("refuses an AgentAction that names no write scope, a read scope or two scopes", () => {
    for (const scopes of ["", '@tag(name: "agent_scope:read:transactions")', '@tag(name: "agent_scope:write:strategies") @tag(name: "agent_scope:write:transfers")'])
      expect(() => agentSurface(`type Mutation { x: Int @tag(name: "agent_action") ${scopes} }`)).toThrow(/one write scope/);
  });
});

describe("the route table and the GraphQL fields agree on what agent tokens reach", () => {
  let api: GraphQLSchema;
  let supergraph: AgentSurface;
  beforeAll(async () => {
    const sdl = readSupergraph();
    const gateway = new ApolloGateway({ supergraphSdl: sdl });
    api = (await gateway.load()).schema;
    await gateway.stop();
    supergraph = agentSurface(sdl);
  });

  it("walks every platform route: AgentTool and AgentAction routes need exactly their scope, every other route refuses every agent token", () => {
    // a composed route runs no single operation: test/e2e/route-security.test.ts tries agent tokens on it
    const checked = platformRoutes.filter(isOperationRoute).filter((route) => route.security.length > 0);
    expect(checked.length).toBeGreaterThan(50);
    const disagreements = checked.flatMap((route) => {
      const needs = agentRequirement(api, supergraph, parse(route.operation));
      // a wallet-restricted token: refused (and documented so) where the operation spans the whole account
      const restricted = missingScope(needs, [...AGENT_TOKEN_SCOPES], true)?.code;
      const scope = route.agentScope ?? route.agentAction;
      const agree = scope
        ? missingScope(needs, [scope]) === undefined &&
          missingScope(needs, AGENT_TOKEN_SCOPES.filter((s) => s !== scope))?.code === "AGT-403-001" &&
          (restricted === "AGT-403-003") === route.errors.includes("AGT-403-003")
        : missingScope(needs, [...AGENT_TOKEN_SCOPES])?.code === "AGT-403-002";
      return agree ? [] : [route.operationId];
    });
    expect(disagreements).toEqual([]);
  });

  it("makes every AgentTool route a GET of a read scope whose fields are AgentTools, and every AgentAction a write of a write scope whose field is an AgentAction", () => {
    const rootFields = (operation: string) => {
      const definition = parse(operation).definitions[0] as unknown as { operation: string; selectionSet: { selections: { name: { value: string } }[] } };
      return definition.selectionSet.selections.map((field) => `${definition.operation === "mutation" ? "Mutation" : "Query"}.${field.name.value}`);
    };
    const tools = platformRoutes.filter(isOperationRoute).filter((route) => route.agentScope);
    const actions = platformRoutes.filter(isOperationRoute).filter((route) => route.agentAction);
    expect(tools.every((route) => route.method === "GET" && route.agentScope!.startsWith("read:") && !route.agentAction)).toBe(true);
    expect(actions.every((route) => route.method !== "GET" && route.agentAction!.startsWith("write:"))).toBe(true);
    for (const route of tools) for (const field of rootFields(route.operation)) expect(supergraph.actions.has(field), `${route.operationId}: ${field}`).toBe(false);
    for (const route of actions) expect(rootFields(route.operation).some((field) => supergraph.actions.has(field)), route.operationId).toBe(true);
    expect(actions.map((route) => route.operationId).sort()).toEqual(
      ["cancelAgentTask", "createAgentTask", "createUserRule", "deleteUserRule", "deleteUserStrategy", "enableUserStrategy", "updateUserRule", "updateUserStrategy"].sort(),
    );
  });

  it("keeps agents off token management, PATs, wallet changes, KYC, card secure details and identity administration", () => {
    const never = ["createAgentToken", "listAgentTokens", "revokeAgentToken", "listAgentTokenUses", "createPersonalAccessToken", "updateWallet", "deleteWallet", "getKycStatus", "createCardDetailsChallenge"];
    const byId = new Map(platformRoutes.map((route) => [route.operationId, route]));
    for (const id of never.filter((id) => byId.has(id))) expect(byId.get(id)!.agentScope ?? byId.get(id)!.agentAction, id).toBeUndefined();
    expect(never.filter((id) => byId.has(id)).length).toBeGreaterThan(6);
  });
});

describe("AgentTool and AgentAction examples", () => {
  it("gives every AgentTool and AgentAction route an example call that its own path, query and body schemas accept", () => {
    const tools = platformRoutes.filter((route) => route.agentScope ?? route.agentAction);
    expect(tools.length).toBeGreaterThan(15);
    for (const route of tools) {
      expect(route.agentExample, route.operationId).toBeDefined();
      const inPath = (name: string) => route.path.includes(`{${name}}`);
      const inBody = (name: string) => route.method !== "GET" && route.body !== undefined && !inPath(name);
      const params = Object.fromEntries(Object.entries(route.agentExample!).filter(([name]) => inPath(name)));
      const query = Object.fromEntries(Object.entries(route.agentExample!).filter(([name]) => !inPath(name) && !inBody(name)));
      const body = Object.fromEntries(Object.entries(route.agentExample!).filter(([name]) => inBody(name)));
      if (route.params) expect(compileValidator(route.params, "path")(params), route.operationId).toBe(true);
      if (route.query) expect(compileValidator(route.query, "query")(query), route.operationId).toBe(true);
      else expect(query, route.operationId).toEqual({});
      if (route.body && route.method !== "GET") {
        expect(compileValidator(route.body, "body")(structuredClone(body)), route.operationId).toBe(true);
        expect(exampleRequest(route).body, route.operationId).toEqual(body);
      }
      expect(exampleRequest(route).url.startsWith(route.path.split("{")[0]!), route.operationId).toBe(true);
    }
  });
});

