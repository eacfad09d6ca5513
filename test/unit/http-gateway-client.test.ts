import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { HttpGatewayClient } from "../../rest-adapter/route-kit/gateway-client.ts";

// Split mode's adapter reaches the gateway over HTTP, often through a load balancer or a proxy,
// whose own errors are not GraphQL answers: each is 502 GEN-502-001, never a 500 (a JSON error
// page was read as a GraphQL result and the adapter threw a TypeError).
let server: Server;
let answer: { status: number; type: string; body: string };

beforeAll(async () => {
  server = createServer((_request, response) => response.writeHead(answer.status, { "content-type": answer.type }).end(answer.body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function execute() {
  const client = new HttpGatewayClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, "s".repeat(32));
  return client.execute({ operation: client.prepare("{ __typename }"), variables: {}, headers: {}, credentials: "none", trace_id: "t".repeat(32), client_address: "127.0.0.1" } as never);
}

describe("HttpGatewayClient", () => {
  it("passes GraphQL answers on, data or errors, whatever their status", async () => {
    answer = { status: 200, type: "application/json", body: '{"data":{"__typename":"Query"}}' };
    expect(await execute()).toEqual({ data: { __typename: "Query" } });
    answer = { status: 401, type: "application/json; charset=utf-8", body: '{"errors":[{"message":"no"}]}' };
    expect(await execute()).toEqual({ errors: [{ message: "no" }] });
  });

  it("answers 502 GEN-502-001 for what is not a GraphQL answer: a proxy's JSON, broken JSON, text", async () => {
    for (const body of [
      { status: 502, type: "application/json", body: '{"message":"Bad Gateway"}' },
      { status: 503, type: "application/json", body: "[]" },
      { status: 502, type: "application/json", body: "{not json" },
      { status: 502, type: "text/plain", body: "Bad Gateway" },
    ]) {
      answer = body;
      const error = await execute().then(() => undefined, (e: unknown) => e);
      expect(error, body.body).toBeInstanceOf(AppError);
      expect((error as AppError).code, body.body).toBe("GEN-502-001");
      expect((error as AppError).detail).toBe(`The GraphQL gateway answered ${body.status}.`);
    }
  });
});
