import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { agentActions, agentTools, type AgentTool } from "../../rest-adapter/agent-runtime/mcp/agent-tools.ts";
import { Budget } from "../../rest-adapter/resources/resources.generated.ts";
import { Links } from "../../rest-adapter/route-kit/schemas.ts";
import { exampleRequest, ToolArgumentError, toolRequest } from "../../rest-adapter/route-kit/tool-request.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";
import type { Route } from "../../rest-adapter/route-kit/route.ts";

// Issue 26: AgentTool tools read, AgentAction tools write; a tool call's arguments are checked
// against its route's own schemas, path parameters are single segments, and the URL built must
// land on the tool's own route, before any request is made.
const reads = agentTools(platformRoutes);
const writes = agentActions(platformRoutes);
const byName = new Map([...reads, ...writes].map((tool) => [tool.name, tool]));
const named = (name: string) => byName.get(name)!;

function refusal(tool: AgentTool, args: Record<string, unknown>) {
  try {
    toolRequest(tool, args);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolArgumentError);
    const refused = error as ToolArgumentError;
    return { code: refused.code, status: refused.status, locs: refused.validation!.map((item) => item.loc.join(".")) };
  }
  return undefined;
}

describe("agentTools and agentActions", () => {
  it("makes the AgentTool routes read tools (GETs, readOnlyHint) and the AgentAction routes write tools, annotated", () => {
    expect(reads.length).toBeGreaterThan(15);
    for (const tool of reads) expect([tool.route.method, tool.access, tool.annotations], tool.name).toEqual(["GET", "read", { readOnlyHint: true, openWorldHint: false }]);
    expect(writes.map((tool) => tool.name).sort()).toEqual(
      ["cancel_agent_task", "create_agent_task", "create_user_rule", "delete_user_rule", "delete_user_strategy", "enable_user_strategy", "update_user_rule", "update_user_strategy"].sort(),
    );
    for (const tool of writes) {
      expect(tool.access, tool.name).toBe("write");
      expect(tool.route.method, tool.name).not.toBe("GET");
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: false, destructiveHint: /^(delete|cancel)_/.test(tool.name), idempotentHint: true, openWorldHint: false });
      expect(tool.inputSchema.properties.idempotency_key, tool.name).toMatchObject({ type: "string" });
    }
  });

  it("builds each route's example request (what /openapi.json shows models)", () => {
    for (const route of platformRoutes.filter((r) => r.agentScope ?? r.agentAction)) expect(exampleRequest(route).url.startsWith(route.path.split("{")[0]!), route.operationId).toBe(true);
  });
});

describe("toolRequest", () => {
  const strategy = named("get_user_strategy");

  it("builds the route's request from valid arguments", () => {
    expect(toolRequest(strategy, { user_strategy_id: "ust_01JD4ZK2M8Q7" })).toEqual({ method: "GET", url: "/v0/user/me/strategies/ust_01JD4ZK2M8Q7" });
    expect(toolRequest(named("list_agent_tasks"), { status: "failed", limit: 5, unknown: "dropped" })).toEqual({ method: "GET", url: "/v0/agent-tasks?status=failed&limit=5" });
  });

  it.each(["..", ".", "", "a/b", "a\\b", "%2e%2e", "%2E%2e", ".%2E", "%2e", "a%2Fb", "a%2fb", "a%5Cb", "a%5cb", "%252e%252e", "%252F"])("refuses the path parameter %j before any request", (value) => {
    expect(refusal(strategy, { user_strategy_id: value })).toEqual({ code: "GEN-422-001", status: 422, locs: ["path.user_strategy_id"] });
  });

  it("refuses a missing path parameter, and values off the route's own schemas in path, query and body, all at once", () => {
    expect(refusal(strategy, {})).toMatchObject({ locs: ["path.user_strategy_id"] });
    expect(refusal(strategy, { user_strategy_id: "x".repeat(65) })).toMatchObject({ locs: ["path.user_strategy_id"] });
    expect(refusal(named("list_agent_tasks"), { status: "bogus", limit: 500 })?.locs.sort()).toEqual(["query.limit", "query.status"]);
    expect(refusal(named("create_user_rule"), { trigger_type: "nope", trigger: {}, action_type: "notification", action: {} })?.locs.sort()).toEqual(["body.name", "body.trigger_type"]);
    expect(refusal(named("update_user_rule"), { rule_id: "rul_1" })?.locs).toEqual(["body"]);
  });

  it("sends a write's idempotency_key as its Idempotency-Key header, checked; a read has none", () => {
    expect(toolRequest(named("delete_user_rule"), { rule_id: "rul_1", idempotency_key: "k-1" })).toEqual({ method: "DELETE", url: "/v0/user/me/rules/rul_1", headers: { "idempotency-key": "k-1" } });
    expect(toolRequest(named("update_user_rule"), { rule_id: "rul_1", enabled: false })).toEqual({ method: "PATCH", url: "/v0/user/me/rules/rul_1", body: { enabled: false } });
    expect(refusal(named("delete_user_rule"), { rule_id: "rul_1", idempotency_key: "has space" })?.locs).toEqual(["header.Idempotency-Key"]);
    expect(toolRequest(strategy, { user_strategy_id: "ust_1", idempotency_key: "k-1" })).toEqual({ method: "GET", url: "/v0/user/me/strategies/ust_1" });
  });

  it("refuses arguments that make the URL land on another route of the table", () => {
    const routes = [
      { operationId: "getThing", method: "GET", path: "/v0/things/{thing_id}", params: Type.Object({ thing_id: Type.String() }), agentScope: "read:transactions", responses: { 200: { description: "the thing", schema: Type.Object({}) } } },
      { operationId: "getThingStats", method: "GET", path: "/v0/things/stats", agentScope: "read:transactions", responses: { 200: { description: "the stats", schema: Type.Object({}) } } },
    ] as unknown as Route[];
    const thing = agentTools(routes).find((tool) => tool.name === "get_thing")!;
    expect(toolRequest(thing, { thing_id: "thg_1" }).url).toBe("/v0/things/thg_1");
    expect(refusal(thing, { thing_id: "stats" })).toEqual({ code: "GEN-422-001", status: 422, locs: ["path"] });
  });
});

describe("tool schemas", () => {
  const tools = [...reads, ...writes];
  /** every `$ref` in a schema */
  const refs = (schema: unknown): string[] => [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]*)"/g)].map((match) => match[1]!);

  it("gives every tool an outputSchema with an object at the top, and the route's body as structuredContent", () => {
    for (const tool of tools) expect([tool.outputSchema.type, tool.outputWrapped], tool.name).toEqual(["object", false]);
    expect(named("list_budgets").outputSchema).toMatchObject({ type: "object", properties: { items: { type: "array", items: { $ref: "#/$defs/Budget" } } }, $defs: { Budget: { type: "object" } } });
  });

  it("makes input and output schemas self-contained: free-form objects as additionalProperties, component references into $defs, no $id", () => {
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        const text = JSON.stringify(schema);
        expect(text, tool.name).not.toContain("patternProperties");
        expect(text, tool.name).not.toContain('"$id"');
        for (const ref of refs(schema)) expect((schema.$defs as Record<string, unknown> | undefined)?.[ref.replace("#/$defs/", "")], `${tool.name} ${ref}`).toBeDefined();
      }
    }
    expect(named("create_user_rule").inputSchema.properties.trigger).toEqual({ type: "object", additionalProperties: {} });
    expect(named("get_user_rule").outputSchema.properties).toMatchObject({ action: { type: "object", additionalProperties: {} }, _links: { type: "object", additionalProperties: { $ref: "#/$defs/Link" } } });
  });

  it("compiles every outputSchema in one validator, as the SDK client does on tools/list", () => {
    const validator = new AjvJsonSchemaValidator();
    const checks = new Map(tools.map((tool) => [tool.name, validator.getValidator(tool.outputSchema)]));
    const link = { href: "https://api.example.com/v0/user/me/rules/rul_1" };
    const rule = { id: "rul_1", name: "r", enabled: true, status: "enabled", last_error: null, trigger_type: "time_based", trigger: { cron: "0 9 * * *" }, action_type: "notification", action: {}, next_run_at: null, last_fired_at: null, created_at: 1, updated_at: 1 };
    expect(checks.get("get_user_rule")!({ ...rule, _links: { self: link } }).valid).toBe(true);
    expect(checks.get("get_user_rule")!({ ...rule, _links: { self: { method: "GET" } } }).valid).toBe(false);
    expect(checks.get("list_user_rules")!({ items: [rule], _links: {} }).valid).toBe(true);
  });

  it("wraps a body that is not an object as { result }: a list, no body (204), either of two answers", () => {
    let n = 0;
    const route = (responses: Route["responses"]) => ({ operationId: "getThing", method: "GET", path: `/v0/things/${++n}`, agentScope: "read:transactions", responses }) as unknown as Route;
    const [object, list, none, mixed] = agentTools([
      route({ 200: { description: "a budget", schema: Type.Ref("Budget") } }),
      route({ 200: { description: "budgets", schema: Type.Array(Type.Ref("Budget")) } }),
      route({ 204: { description: "done" } }),
      route({ 200: { description: "links", schema: Links }, 204: { description: "nothing" } }),
    ]);
    // a component at the top is the schema itself; another reference to it still finds it in $defs
    expect(object!.outputWrapped).toBe(false);
    expect(Object.keys(object!.outputSchema.properties as object)).toEqual(Object.keys(Budget.properties));
    expect(list).toMatchObject({ outputWrapped: true, outputSchema: { type: "object", properties: { result: { type: "array", items: { $ref: "#/$defs/Budget" } } }, required: ["result"], $defs: { Budget: { type: "object" } } } });
    expect(none).toMatchObject({ outputWrapped: true, outputSchema: { type: "object", properties: { result: { type: "null" } }, required: ["result"], additionalProperties: false } });
    expect(mixed!.outputSchema.properties).toEqual({ result: { anyOf: [{ type: "object", description: "HAL links", additionalProperties: { $ref: "#/$defs/Link" } }, { type: "null" }] } });
    const validator = new AjvJsonSchemaValidator();
    expect(validator.getValidator(none!.outputSchema)({ result: null }).valid).toBe(true);
    expect(validator.getValidator(mixed!.outputSchema)({ result: { self: { href: "x" } } }).valid).toBe(true);
    expect(validator.getValidator(mixed!.outputSchema)({ result: [] }).valid).toBe(false);
  });
});
