import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/platform.ts";

// Issue 7, item 3: /graphql refuses documents that fan out (depth, aliases, cost) or are huge
// (tokens) before running anything, as GraphQL errors with 400; introspection is configurable.
let platform: TestPlatform;
let closed: TestPlatform;

beforeAll(async () => {
  [platform, closed] = await Promise.all([startTestPlatform(), startTestPlatform({ GRAPHQL_INTROSPECTION: "false" })]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), closed?.stop()]);
});

async function graphql(query: string, target = platform, headers: Record<string, string> = {}) {
  const response = await fetch(target.urls.graphql, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query }) });
  return { status: response.status, body: await response.json() };
}

async function expectRefused(query: string, code: string, message: RegExp, headers: Record<string, string> = {}) {
  const { status, body } = await graphql(query, platform, headers);
  expect(status, JSON.stringify(body)).toBe(400);
  expect(body.data).toBeUndefined();
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code } });
}

const nested = (levels: number, leaf: string) => `{ me { ${"... on User { ".repeat(levels)}${leaf}${" }".repeat(levels)} } }`;

describe("/graphql document limits (defaults)", () => {
  it("refuses a query nested deeper than 10", async () => {
    const { jwt } = await platform.createUser();
    const within = await graphql(nested(8, "id"), platform, { "x-platform-jwt": jwt });
    expect(within.status).toBe(200);
    expect(within.body.errors).toBeUndefined();
    await expectRefused(nested(9, "id"), "GRAPHQL_VALIDATION_FAILED", /depth limit of 10 exceeded, found 11/, { "x-platform-jwt": jwt });
  });

  it("refuses more than 15 aliases: one request cannot mint thousands of SIWE nonces", async () => {
    const mutation = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: siwe_nonce { nonce }`).join(" ")} }`;
    await expectRefused(mutation(300), "GRAPHQL_VALIDATION_FAILED", /Aliases limit of 15 exceeded, found 300/);
  });

  it("refuses a document of more than 2000 tokens while parsing", async () => {
    await expectRefused(`{ me { ${"id ".repeat(5000)} } }`, "GRAPHQL_PARSE_FAILED", /more th.. 2000 tokens/);
  });

  it("refuses a query costing more than 5000", async () => {
    await expectRefused(nested(8, "id ".repeat(150)), "GRAPHQL_VALIDATION_FAILED", /Cost limit of 5000 exceeded/);
  });

  it("refuses more than 50 directives", async () => {
    await expectRefused(`{ me { ${"id @include(if: true) ".repeat(60)}} }`, "GRAPHQL_VALIDATION_FAILED", /Directives limit of 50 exceeded/);
  });
});

describe("introspection", () => {
  it("is on outside production: the standard introspection query passes the limits", async () => {
    const { status, body } = await graphql(getIntrospectionQuery());
    expect(status, JSON.stringify(body.errors)).toBe(200);
    expect(body.data.__schema.queryType.name).toBe("Query");
  });

  it("counts its fields against the depth limit: 200 levels of ofType are refused before running, on /graphql and on /graphql/agent", async () => {
    const ofTypes = (levels: number) => `{ __schema { types { ${"ofType { ".repeat(levels)}name${" }".repeat(levels)} } } }`;
    await expectRefused(ofTypes(200), "GRAPHQL_VALIDATION_FAILED", /depth limit of 21 exceeded, found 203/);
    // the AgentTool contract answers introspection even where /graphql does not (its own allowance, same limit)
    for (const target of [platform, closed]) {
      const { jwt } = await target.createUser();
      const agent = (query: string) => fetch(`${target.urls.graphql}/agent`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query }) });
      const deep = await agent(ofTypes(200));
      expect(deep.status).toBe(400);
      expect((await deep.json()).errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/depth limit of 21 exceeded, found 203/), extensions: expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED" }) })]);
      const stock = await agent(getIntrospectionQuery());
      expect(stock.status).toBe(200);
      expect((await stock.json()).data.__schema.queryType.name).toBe("Query");
    }
  });

  it("is off with GRAPHQL_INTROSPECTION=false (the production default), with a 400 GraphQL error", async () => {
    for (const query of [getIntrospectionQuery(), "{ __schema { types { name } } }", '{ __type(name: "User") { fields { name } } }']) {
      const { status, body } = await graphql(query, closed);
      expect(status).toBe(400);
      expect(body.errors[0]).toMatchObject({ message: expect.stringMatching(/introspection is not allowed/i), extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    }
    // ordinary queries are unaffected (also __typename)
    const { jwt } = await closed.createUser();
    const me = await graphql("{ me { __typename id } }", closed, { "x-platform-jwt": jwt });
    expect(me.status).toBe(200);
    expect(me.body.data.me.__typename).toBe("User");
  });
});
