import { readdirSync } from "node:fs";
import { join } from "node:path";
import { operationFromDocument, Supergraph } from "@apollo/federation-internals";
import { QueryPlanner, type PlanNode, type QueryPlan } from "@apollo/query-planner";
import { getIntrospectionQuery, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../lib/config-error.ts";
import { DEFAULT_GRAPHQL_LIMITS, depthRule, documentBeyondLimits, graphqlBodyLimit, limitParseOptions, loadGraphqlLimitConfig, operationBeyondLimits, subgraphLimits, type GraphqlLimits } from "../../lib/graphql/limits.ts";
import { DEFAULT_ROUTE_BODY_LIMIT, type OperationRoute } from "../../rest-adapter/route-kit/route.ts";
import { readSupergraph } from "../../server/supergraph.ts";

const ROUTES_DIR = join(import.meta.dirname, "..", "..", "rest-adapter", "routes");

/** Every route of every table in rest-adapter/routes, so a new route file is covered without editing this test. */
async function allRoutes(): Promise<OperationRoute[]> {
  const routes: OperationRoute[] = [];
  for (const file of readdirSync(ROUTES_DIR).filter((f) => f.endsWith(".ts"))) {
    const module = (await import(join(ROUTES_DIR, file))) as Record<string, unknown>;
    for (const value of Object.values(module))
      if (Array.isArray(value)) routes.push(...value.filter((r): r is OperationRoute => typeof r?.operation === "string" && typeof r?.operationId === "string"));
  }
  return routes;
}

describe("GRAPHQL_LIMITS, GRAPHQL_INTROSPECTION and GRAPHQL_IDE", () => {
  it("defaults to generous limits, introspection and the IDE on outside production and off in production", () => {
    expect(loadGraphqlLimitConfig({})).toEqual({ limits: DEFAULT_GRAPHQL_LIMITS, introspection: true, ide: true });
    expect(loadGraphqlLimitConfig({ NODE_ENV: "test" }).introspection).toBe(true);
    expect(loadGraphqlLimitConfig({ NODE_ENV: "production" }).introspection).toBe(false);
    expect(loadGraphqlLimitConfig({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true" }).introspection).toBe(true);
    expect(loadGraphqlLimitConfig({ GRAPHQL_INTROSPECTION: "off" }).introspection).toBe(false);
    expect(loadGraphqlLimitConfig({ NODE_ENV: "production" }).ide).toBe(false);
    expect(loadGraphqlLimitConfig({ NODE_ENV: "production", GRAPHQL_IDE: "true" })).toMatchObject({ ide: true, introspection: false });
    expect(loadGraphqlLimitConfig({ GRAPHQL_IDE: "false" })).toMatchObject({ ide: false, introspection: true });
  });

  it("overrides single limits and keeps the others", () => {
    expect(loadGraphqlLimitConfig({ GRAPHQL_LIMITS: '{"max_depth": 12, "max_aliases": 4}' }).limits).toEqual({ ...DEFAULT_GRAPHQL_LIMITS, max_depth: 12, max_aliases: 4 });
  });

  it.each([
    ["not JSON", "{", /GRAPHQL_LIMITS: expected JSON/],
    ["an array", "[1]", /expected a JSON object/],
    ["an unknown limit", '{"max_width": 3}', /unknown limit "max_width"/],
    ["zero", '{"max_depth": 0}', /max_depth: expected a positive integer/],
    ["a fraction", '{"max_cost": 1.5}', /max_cost: expected a positive integer/],
    ["a string", '{"max_tokens": "100"}', /max_tokens: expected a positive integer/],
  ])("refuses %s", (_, value, message) => {
    expect(() => loadGraphqlLimitConfig({ GRAPHQL_LIMITS: value })).toThrow(ConfigError);
    expect(() => loadGraphqlLimitConfig({ GRAPHQL_LIMITS: value })).toThrow(message);
  });

  it("refuses a bad GRAPHQL_INTROSPECTION or GRAPHQL_IDE", () => {
    expect(() => loadGraphqlLimitConfig({ GRAPHQL_INTROSPECTION: "maybe" })).toThrow(/GRAPHQL_INTROSPECTION: expected true or false/);
    expect(() => loadGraphqlLimitConfig({ GRAPHQL_IDE: "maybe" })).toThrow(/GRAPHQL_IDE: expected true or false/);
  });
});

describe("the default limits and the REST routes", () => {
  const schema = Supergraph.build(readSupergraph()).apiSchema().toGraphQLJSSchema();

  it("every REST route's operation passes every limit (split mode sends them through /graphql)", async () => {
    const routes = await allRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const beyond = routes.map((r) => [r.operationId, operationBeyondLimits(schema, r.operation, DEFAULT_GRAPHQL_LIMITS)]).filter(([, problem]) => problem);
    expect(beyond).toEqual([]);
  });

  it("the limits bite where they should", () => {
    const nested = (levels: number, leaf: string) => `{ me { ${"... on User { ".repeat(levels)}${leaf}${" }".repeat(levels)} } }`;
    expect(operationBeyondLimits(schema, nested(8, "id"), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, nested(9, "id"), DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 10 exceeded, found 11/);
    expect(operationBeyondLimits(schema, nested(8, "id ".repeat(150)), DEFAULT_GRAPHQL_LIMITS)).toMatch(/Cost limit of 5000 exceeded/);
    const aliases = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: siwe_nonce { nonce }`).join(" ")} }`;
    expect(operationBeyondLimits(schema, aliases(15), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, aliases(16), DEFAULT_GRAPHQL_LIMITS)).toMatch(/Aliases limit of 15 exceeded, found 16/);
    expect(operationBeyondLimits(schema, `{ me { ${"id ".repeat(2000)} } }`, DEFAULT_GRAPHQL_LIMITS)).toMatch(/Document contains more th.. 2000 tokens/);
    const directives = `{ me { ${"id @include(if: true) ".repeat(51)}} }`;
    expect(operationBeyondLimits(schema, directives, DEFAULT_GRAPHQL_LIMITS)).toMatch(/Directives limit of 50 exceeded/);
  });

  it("counts a document's bytes, which max_tokens does not: comments, whitespace and commas", () => {
    const padded = (padding: string) => `{ me { id } }\n${padding}`;
    const comments = (bytes: number) => padded(`${"#".repeat(99)}\n`.repeat(bytes / 100));
    expect(operationBeyondLimits(schema, comments(32_700), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, comments(100_000), DEFAULT_GRAPHQL_LIMITS)).toMatch(/Document contains more than 32768 bytes/);
    expect(operationBeyondLimits(schema, padded(" ".repeat(40_000)), DEFAULT_GRAPHQL_LIMITS)).toMatch(/more than 32768 bytes/);
    expect(operationBeyondLimits(schema, padded(",".repeat(40_000)), DEFAULT_GRAPHQL_LIMITS)).toMatch(/more than 32768 bytes/);
    // UTF-8 bytes, not characters: 11,000 euro signs are 33,000 bytes, 15,000 e-acutes 30,000
    expect(operationBeyondLimits(schema, padded(`# ${"€".repeat(11_000)}`), DEFAULT_GRAPHQL_LIMITS)).toMatch(/more than 32768 bytes/);
    expect(operationBeyondLimits(schema, padded(`# ${"é".repeat(15_000)}`), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, comments(100_000), { ...DEFAULT_GRAPHQL_LIMITS, max_document_bytes: 200_000 })).toBeUndefined();
  });

  it("the public /graphql body holds a document and 32 KiB of variables: 64 KiB by default, as a REST route's", () => {
    expect(graphqlBodyLimit(DEFAULT_GRAPHQL_LIMITS)).toBe(DEFAULT_ROUTE_BODY_LIMIT);
    expect(graphqlBodyLimit({ ...DEFAULT_GRAPHQL_LIMITS, max_document_bytes: 4096 })).toBe(4096 + 32 * 1024);
  });

  it("counts introspection fields: the standard introspection query fits max_introspection_depth exactly, 200 levels do not", () => {
    const every = { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true };
    expect(operationBeyondLimits(schema, getIntrospectionQuery(), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, getIntrospectionQuery(every), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    // one ofType level past graphql-js's default typeDepth (9) is one level too deep
    expect(operationBeyondLimits(schema, getIntrospectionQuery({ typeDepth: 10 }), DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 21 exceeded, found 22/);
    const ofTypes = (levels: number) => `{ __schema { types { ${"ofType { ".repeat(levels)}name${" }".repeat(levels)} } } }`;
    expect(operationBeyondLimits(schema, ofTypes(18), DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    expect(operationBeyondLimits(schema, ofTypes(19), DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 21 exceeded, found 22/);
    expect(operationBeyondLimits(schema, ofTypes(200), DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 21 exceeded, found 203/);
    // __type and fragments are introspection too
    expect(operationBeyondLimits(schema, `{ __type(name: "User") { ${"ofType { ".repeat(200)}name${" }".repeat(200)} } }`, DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 21 exceeded, found 202/);
    expect(operationBeyondLimits(schema, `query { ...Schema } fragment Schema on Query { ${ofTypes(200).slice(2, -2)} }`, DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 21 exceeded/);
    // the allowance is for reading the schema: asked for beside data, introspection counts against max_depth
    expect(operationBeyondLimits(schema, `{ me { id } ${ofTypes(8).slice(2, -2)} }`, DEFAULT_GRAPHQL_LIMITS)).toMatch(/depth limit of 10 exceeded, found 11/);
    expect(operationBeyondLimits(schema, `{ __typename ${ofTypes(18).slice(2, -2)} }`, DEFAULT_GRAPHQL_LIMITS)).toBeUndefined();
    // and it is configurable like the others
    expect(operationBeyondLimits(schema, getIntrospectionQuery(), { ...DEFAULT_GRAPHQL_LIMITS, max_introspection_depth: 20 })).toMatch(/depth limit of 20 exceeded, found 21/);
  });
});

describe("a split-mode subgraph's limits and the query planner's fetches", () => {
  const supergraph = Supergraph.build(readSupergraph());
  const planner = new QueryPlanner(supergraph);
  const subgraphSchemas = new Map([...supergraph.subgraphs()].map((subgraph) => [subgraph.name, subgraph.schema.toGraphQLJSSchema()]));

  function fetchesOf(node: PlanNode | QueryPlan["node"]): { serviceName: string; operation: string }[] {
    if (!node) return [];
    if (node.kind === "Fetch") return [node];
    if (node.kind === "Sequence" || node.kind === "Parallel") return node.nodes.flatMap(fetchesOf);
    if (node.kind === "Flatten") return fetchesOf(node.node);
    throw new Error(`unexpected plan node ${node.kind}`);
  }

  /** What each subgraph listener would refuse of the fetches the gateway makes for `source`. */
  function refusedFetches(source: string, limits: GraphqlLimits): string[] {
    const plan = planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(source)));
    return fetchesOf(plan.node).flatMap(({ serviceName, operation }) => {
      const beyond = documentBeyondLimits(operation, limits);
      if (beyond) return [`${serviceName}: ${beyond}`];
      const errors = validate(subgraphSchemas.get(serviceName)!, parse(operation, limitParseOptions(limits)), [depthRule(limits)]);
      return errors.map((e) => `${serviceName}: ${e.message}`);
    });
  }

  it("every REST operation's fetches pass the subgraph limits", async () => {
    const routes = await allRoutes();
    const refused = routes.flatMap((route) => refusedFetches(route.operation, subgraphLimits(DEFAULT_GRAPHQL_LIMITS)).map((problem) => `${route.operationId}: ${problem}`));
    expect(refused).toEqual([]);
  });

  it("an entity fetch is one level deeper than its document: the same max_depth would refuse what the gateway let through", () => {
    // depth 7 at the gateway; the finance fetch nests accounts in _entities { ... on User { … } }
    const accounts = "{ me { accounts { items { balances { asset { contract_addresses { address } } } } } } }";
    const limits = { ...DEFAULT_GRAPHQL_LIMITS, max_depth: 7 };
    expect(operationBeyondLimits(supergraph.apiSchema().toGraphQLJSSchema(), accounts, limits)).toBeUndefined();
    expect(refusedFetches(accounts, limits)).toEqual([expect.stringMatching(/^finance: .*depth limit of 7 exceeded, found 8/)]);
    expect(refusedFetches(accounts, subgraphLimits(limits))).toEqual([]);
  });
});
