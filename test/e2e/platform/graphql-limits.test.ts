import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { getIntrospectionQuery } from "graphql";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInternalGraphqlApp } from "../../../gateway/http.ts";
import { PRINCIPAL_HEADER, signPrincipal, type PrincipalAudience } from "../../../lib/auth/internal-principal.ts";
import { ADAPTER_PRINCIPAL, type Principal } from "../../../lib/auth/principal.ts";
import { MemoryReplayStore } from "../../../lib/auth/replay-store.ts";
import { buildSubgraphApp } from "../../../subgraphs/http.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 7, item 3: /graphql refuses documents that fan out (depth, aliases, cost) or are huge
// (tokens, bytes) before running anything, as GraphQL errors with 400; introspection is configurable.
// Issue 27, items 5 and 6: the public body limit, the document length, and the limits on every listener.
let platform: TestPlatform;
/** introspection off, and a 4 KiB document limit (so a GET's query string can pass it) */
let closed: TestPlatform;

beforeAll(async () => {
  [platform, closed] = await Promise.all([startTestPlatform(), startTestPlatform({ GRAPHQL_INTROSPECTION: "false", GRAPHQL_LIMITS: '{"max_document_bytes": 4096}' })]);
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

/** `query` after `bytes` of comment lines, which graphql-js's token limit does not count. */
const commentPadded = (query: string, bytes: number) => `${query}\n${`#${"x".repeat(98)}\n`.repeat(Math.ceil(bytes / 100))}`;
const ofTypes = (levels: number) => `{ __schema { types { ${"ofType { ".repeat(levels)}name${" }".repeat(levels)} } } }`;

describe("/graphql body and document length (defaults)", () => {
  it("refuses a body over 64 KiB with a GraphQL-shaped 413 GEN-413-001, on /graphql and /graphql/agent, before any credential", async () => {
    const { jwt } = await platform.createUser();
    for (const url of [platform.urls.graphql, `${platform.urls.graphql}/agent`]) {
      const post = (padding: number) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query: "{ __typename }", variables: { padding: "x".repeat(padding) } }) });
      const over = await post(64 * 1024);
      expect(over.status).toBe(413);
      const body = await over.json();
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code: "GEN-413-001", error_code: "GEN-413-001", status: 413 }) })]);
      const under = await post(60 * 1024);
      expect(under.status).toBe(200);
      expect((await under.json()).data.__typename).toBe("Query");
    }
  });

  it("refuses a document over 32 KiB before parsing it, however it is padded; a 100 KB one does not get past the body limit", async () => {
    await expectRefused(commentPadded("{ __typename }", 40_000), "GRAPHQL_PARSE_FAILED", /Document contains more than 32768 bytes/);
    await expectRefused(`{ __typename }${" ".repeat(40_000)}`, "GRAPHQL_PARSE_FAILED", /Document contains more than 32768 bytes/);
    expect((await graphql(commentPadded("{ __typename }", 100_000))).status).toBe(413);
    const within = await graphql(commentPadded("{ __typename }", 32_000));
    expect(within.status).toBe(200);
    expect(within.body.data.__typename).toBe("Query");
  });

  it("GRAPHQL_LIMITS sets the document length, also for a GET's query string", async () => {
    const get = (query: string) => fetch(`${closed.urls.graphql}?query=${encodeURIComponent(query)}`, { headers: { "apollo-require-preflight": "true" } });
    const over = await get(commentPadded("{ __typename }", 5_000));
    expect(over.status).toBe(400);
    expect((await over.json()).errors).toEqual([{ message: "Syntax Error: Document contains more than 4096 bytes. Parsing aborted.", extensions: { code: "GRAPHQL_PARSE_FAILED" } }]);
    const within = await get(commentPadded("{ __typename }", 3_000));
    expect(within.status).toBe(200);
    expect((await within.json()).data.__typename).toBe("Query");
    const post = await graphql(commentPadded("{ __typename }", 5_000), closed);
    expect(post.body.errors[0].message).toMatch(/more than 4096 bytes/);
  });
});

describe("introspection", () => {
  it("is on outside production: the standard introspection query passes the limits", async () => {
    const { status, body } = await graphql(getIntrospectionQuery());
    expect(status, JSON.stringify(body.errors)).toBe(200);
    expect(body.data.__schema.queryType.name).toBe("Query");
  });

  it("counts its fields against the depth limit: 200 levels of ofType are refused before running, on /graphql and on /graphql/agent", async () => {
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

/** A POST as one of our services signs it for `audience`, over this very body. */
async function signedPost(app: FastifyInstance, secret: string, audience: PrincipalAudience, principal: Principal, payload: Record<string, unknown>, gateway = false) {
  const body = JSON.stringify(payload);
  const header = signPrincipal(principal, { secret, audience, body, ...(gateway && { clientAddress: "127.0.0.1", credentials: "internal" as const }) });
  const response = await app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: header }, payload: body });
  return { status: response.statusCode, body: response.json() };
}

/** Refused with `status` and one error whose message matches. */
function expectError(answer: { status: number; body: any }, code: string, message: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.data).toBeUndefined();
  expect(answer.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) })]);
}

describe("split mode's listeners apply the same limits (built here on the platform's gateway and subgraphs)", () => {
  const secret = randomBytes(32).toString("hex");
  const logger = pino({ level: "silent" });
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it("the gateway's internal listener: depth, tokens and length as on /graphql, with bodies as large as the adapter sends", async () => {
    const app = await buildInternalGraphqlApp({ server: platform.gateway.server, logger, internalSecret: secret, replays: new MemoryReplayStore(), authenticator: platform.gatewayClient.authenticator, limits: platform.config.graphql.limits });
    stops.push(() => app.close());
    const post = (payload: Record<string, unknown>) => signedPost(app, secret, "gateway", ADAPTER_PRINCIPAL, payload, true);
    expectError(await post({ query: ofTypes(200) }), "GRAPHQL_VALIDATION_FAILED", /depth limit of 21 exceeded, found 203/);
    expectError(await post({ query: commentPadded("{ __typename }", 100_000) }), "GRAPHQL_PARSE_FAILED", /more than 32768 bytes/);
    expectError(await post({ query: `{ __typename ${"__typename ".repeat(2500)}}` }), "GRAPHQL_PARSE_FAILED", /more th.. 2000 tokens/);
    const stock = await post({ query: getIntrospectionQuery() });
    expect(stock.status).toBe(200);
    expect(stock.body.data.__schema.queryType.name).toBe("Query");
    // a REST body at its route's limit travels in the variables: the public 64 KiB is not this listener's
    const restSized = await post({ query: "{ __typename }", variables: { body: "x".repeat(64 * 1024) } });
    expect(restSized.status).toBe(200);
  });

  it("each subgraph's listener: depth, tokens and length, with room for the query planner's additions", async () => {
    for (const [name, subgraph] of Object.entries(platform.subgraphs)) {
      const { app, server } = await buildSubgraphApp(subgraph, { internalSecret: secret, replays: new MemoryReplayStore(), logger, limits: platform.config.graphql.limits });
      stops.push(() => app.close(), () => server.stop());
      const post = (query: string) => signedPost(app, secret, name as PrincipalAudience, { kind: "internal", service: "gateway" }, { query });
      expectError(await post(ofTypes(200)), "GRAPHQL_VALIDATION_FAILED", /depth limit of 21 exceeded, found 203/);
      expectError(await post(commentPadded("{ _service { sdl } }", 100_000)), "GRAPHQL_PARSE_FAILED", /more than 65536 bytes/);
      expectError(await post(`{ _service { ${"sdl ".repeat(5000)}} }`), "GRAPHQL_PARSE_FAILED", /more th.. 4000 tokens/);
      const stock = await post(getIntrospectionQuery());
      expect(stock.status, name).toBe(200);
      expect(stock.body.data.__schema.queryType.name).toBe("Query");
      const sdl = await post(commentPadded("{ _service { sdl } }", 60_000));
      expect(sdl.status, name).toBe(200);
      expect(sdl.body.data._service.sdl).toContain("type");
    }
  });
});
