import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildHttpApp } from "../../rest-adapter/route-kit/app.ts";
import type { GatewayClient } from "../../rest-adapter/route-kit/gateway-client.ts";
import type { ResponseMismatch } from "../../rest-adapter/route-kit/response-check.ts";
import type { Route } from "../../rest-adapter/route-kit/route.ts";
import { EpochMs } from "../../rest-adapter/route-kit/schemas.ts";

/** A gateway answering every operation with what the test hands it. */
function gatewayAnswering(answer: () => unknown): GatewayClient {
  return { prepare: (source) => ({ source }), execute: async () => answer() as never };
}

/** Not in the route tables, so not typed by operationId: the test reads its data itself. */
const thing: Route = {
  operationId: "getThing",
  method: "GET",
  path: "/v0/things/{id}",
  tag: "Things",
  summary: "A thing",
  security: [],
  params: Type.Object({ id: Type.Integer() }),
  operation: "query Thing { thing { name created_at } }",
  result: (data) => (data as { thing: unknown }).thing,
  responses: { 200: { description: "The thing", schema: Type.Object({ name: Type.String(), created_at: EpochMs }) } },
  errors: ["WAL-404-001"],
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(answer: () => unknown, mismatches?: ResponseMismatch[]) {
  app = await buildHttpApp({
    name: "test",
    routes: [thing],
    gateway: gatewayAnswering(answer),
    logger: pino({ level: "silent" }),
    baseUrl: "http://platform.test",
    docsUrl: "http://docs.test",
    credentialHeaders: [],
    ...(mismatches && { checkResponses: (mismatch: ResponseMismatch) => mismatches.push(mismatch) }),
  });
  return app;
}

const error = (code: string) => ({ errors: [{ message: "refused", extensions: { error_code: code } }] });

describe("response check", () => {
  it("passes an answer that matches its documented schema, in either timestamp format", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => ({ data: { thing: { name: "a", created_at: 1_700_000_000_000 } } }), mismatches);
    expect((await target.inject({ url: "/v0/things/1" })).statusCode).toBe(200);
    const iso = await target.inject({ url: "/v0/things/1", headers: { "x-timestamp-format": "iso8601" } });
    expect(iso.json().created_at).toBe("2023-11-14T22:13:20Z");
    expect(mismatches).toEqual([]);
  });

  it("reports a body that differs from the schema, with the route, status and ajv's complaint, and sends it unchanged", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => ({ data: { thing: { name: 7, created_at: 1 } } }), mismatches);
    const response = await target.inject({ url: "/v0/things/1?x=1" });
    expect(response.json()).toEqual({ name: 7, created_at: 1 });
    expect(mismatches).toEqual([{ operationId: "getThing", method: "GET", url: "/v0/things/1", status: 200, problem: "/name must be string", body: { name: 7, created_at: 1 } }]);
  });

  it("reports a property the schema does not name", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => ({ data: { thing: { name: "a", created_at: 1, secret: "x" } } }), mismatches);
    await target.inject({ url: "/v0/things/1" });
    expect(mismatches).toMatchObject([{ operationId: "getThing", status: 200, problem: "/ must NOT have additional properties (secret)" }]);
  });

  it("passes documented errors as ProblemDetail / HTTPValidationError bodies", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => error("WAL-404-001"), mismatches);
    expect((await target.inject({ url: "/v0/things/1" })).statusCode).toBe(404);
    expect((await target.inject({ url: "/v0/things/x" })).statusCode).toBe(422);
    expect(mismatches).toEqual([]);
  });

  it("passes the codes every route of its kind answers (derived, not listed): an unavailable subgraph", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => error("GEN-503-001"), mismatches);
    expect((await target.inject({ url: "/v0/things/1" })).statusCode).toBe(503);
    expect(mismatches).toEqual([]);
  });

  it("reports a ProblemDetail whose error_code is not one of the route's codes, though its status is declared", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => error("PAT-404-001"), mismatches);
    const response = await target.inject({ url: "/v0/things/1" });
    expect([response.statusCode, response.json().error_code]).toEqual([404, "PAT-404-001"]);
    expect(mismatches).toMatchObject([{ operationId: "getThing", status: 404, problem: "error_code PAT-404-001 is not one of the route's codes (WAL-404-001)", body: { error_code: "PAT-404-001" } }]);
  });

  it("reports a status the route does not declare", async () => {
    const mismatches: ResponseMismatch[] = [];
    const target = await build(() => error("USR-409-001"), mismatches);
    expect((await target.inject({ url: "/v0/things/1" })).statusCode).toBe(409);
    expect(mismatches).toMatchObject([{ operationId: "getThing", status: 409, problem: "status 409 is not declared", body: { error_code: "USR-409-001" } }]);
  });

  it("reports a 429 without the Retry-After header the document says every 429 carries", async () => {
    const mismatches: ResponseMismatch[] = [];
    let retryAfter: number | undefined = 7;
    const target = await build(() => ({ errors: [{ message: "refused", extensions: { error_code: "GEN-429-001", ...(retryAfter !== undefined && { retry_after: retryAfter }) } }] }), mismatches);
    const limited = await target.inject({ url: "/v0/things/1" });
    expect([limited.statusCode, limited.headers["retry-after"]]).toEqual([429, "7"]);
    expect(mismatches).toEqual([]);
    retryAfter = undefined;
    expect((await target.inject({ url: "/v0/things/1" })).headers["retry-after"]).toBeUndefined();
    expect(mismatches).toMatchObject([{ operationId: "getThing", status: 429, problem: "no Retry-After header, which every documented 429 answer carries" }]);
  });

  it("answers the same without the check (production): the check only observes", async () => {
    const answer = () => ({ data: { thing: { name: 7, created_at: 1 } } });
    const checked = await (await build(answer, [])).inject({ url: "/v0/things/1" });
    const plain = await (await build(answer)).inject({ url: "/v0/things/1" });
    expect([plain.statusCode, plain.body, plain.headers["content-type"]]).toEqual([checked.statusCode, checked.body, checked.headers["content-type"]]);
  });
});
