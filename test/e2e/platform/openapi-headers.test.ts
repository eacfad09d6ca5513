import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformRoutes } from "../../../rest-adapter/hosts/platform.ts";
import { responsesOf } from "../../support/openapi-document.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 25 item 7: the headers the spec names in prose (Idempotency-Key, the webhook signature
// headers, x-platform-orgid, Retry-After) are declared in each host's /openapi.json, as header
// parameters and response headers, so generated clients type them.

type Parameter = { name: string; in: string; required?: boolean; schema?: Record<string, unknown> };
type Header = { required?: boolean; schema?: Record<string, unknown> };
type Operation = { operationId: string; parameters?: Parameter[]; security?: Record<string, unknown>[]; responses: Record<string, { headers?: Record<string, Header> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> } };

let platform: TestPlatform;
const documents: Record<"platform" | "identity" | "rpc", Document> = {} as never;

beforeAll(async () => {
  platform = await startTestPlatform();
  for (const host of ["platform", "identity", "rpc"] as const) documents[host] = await (await fetch(`${platform.urls[host]}/openapi.json`)).json();
});
afterAll(() => platform?.stop());

function operations(document: Document): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]));
}

const headerParameter = (operation: Operation, name: string) => operation.parameters?.find((p) => p.in === "header" && p.name.toLowerCase() === name.toLowerCase());
const takesCredential = (operation: Operation) => (operation.security ?? []).some((entry) => Object.keys(entry).length > 0);

describe("header parameters", () => {
  it("declares the optional Idempotency-Key on every route that honours it, and on no other", () => {
    const deposits = headerParameter(documents.platform.paths["/v0/sandbox/deposits"]!.post!, "Idempotency-Key");
    expect(deposits).toMatchObject({ in: "header", required: false, schema: { type: "string", pattern: expect.any(String) } });
    const documented = operations(documents.platform).filter(([, operation]) => headerParameter(operation, "Idempotency-Key"));
    const honouring = platformRoutes.filter((route) => route.idempotent && documents.platform.paths[route.path]?.[route.method.toLowerCase()]);
    expect(documented.map(([id]) => id).sort()).toEqual(honouring.map((route) => `${route.method} ${route.path}`).sort());
    expect(honouring.length).toBeGreaterThan(1);
  });

  it("declares the webhook receivers' signature headers: the wallet-claimed receiver's three, the KYC and banking receivers' own", () => {
    const receiver = (path: string) => documents.platform.paths[path]!.post!;
    const claimed = receiver("/v0/webhooks/embedded-wallet/wallet-claimed");
    expect(headerParameter(claimed, "webhook-timestamp")).toMatchObject({ required: true });
    expect(headerParameter(claimed, "webhook-signature")).toMatchObject({ required: true });
    // spec 5.3.2: it mirrors the envelope id, which is the de-duplication key; a delivery without it is accepted
    expect(headerParameter(claimed, "webhook-id")).toMatchObject({ required: false });
    const kyc = receiver("/v0/webhooks/kyc/kyc-provider/events");
    expect(headerParameter(kyc, "x-payload-digest")).toMatchObject({ required: true });
    expect(headerParameter(kyc, "x-payload-digest-alg")).toMatchObject({ required: true, schema: { enum: ["HMAC_SHA256_HEX", "HMAC_SHA512_HEX"] } });
    expect(headerParameter(receiver("/v0/webhooks/banking-provider/events"), "platform-banking-signature")).toMatchObject({ required: true });
  });

  it("declares the optional x-platform-orgid on every platform operation that takes a credential, and on none that takes none", () => {
    const all = operations(documents.platform);
    for (const [id, operation] of all) {
      const orgId = headerParameter(operation, "x-platform-orgid");
      expect(orgId !== undefined, id).toBe(takesCredential(operation));
      if (orgId) expect(orgId.required, id).toBe(false);
    }
    expect(all.filter(([, operation]) => takesCredential(operation)).length).toBeGreaterThan(50);
  });

  it("names every credential header in a security scheme", () => {
    const schemes = documents.platform.components.securitySchemes;
    for (const header of ["x-platform-jwt", "x-platform-pat", "x-platform-token"]) expect(Object.values(schemes)).toContainEqual(expect.objectContaining({ type: "apiKey", in: "header", name: header }));
    expect(documents.identity.components.securitySchemes).toMatchObject({ DashboardSession: { type: "http" }, ApiKey: { type: "http" }, PintToken: { type: "apiKey", in: "header", name: "x-platform-pint-token" } });
    expect(documents.rpc.components.securitySchemes.PublicApiKey).toMatchObject({ type: "http" });
  });
});

describe("response headers", () => {
  it.each(["platform", "identity", "rpc"] as const)("%s: every 429 and every 503 declares a required Retry-After", (host) => {
    let seen = 0;
    for (const [id, operation] of operations(documents[host])) {
      for (const status of ["429", "503"]) {
        const response = responsesOf(documents[host], operation)[status];
        if (!response) continue;
        seen++;
        expect(response.headers?.["Retry-After"], `${id} ${status}`).toMatchObject({ required: true, schema: { type: "integer" } });
      }
    }
    expect(seen).toBeGreaterThan(2);
  });

  it("keeps a route's fixed headers beside Retry-After", () => {
    const secrets = operations(documents.platform).find(([, operation]) => operation.responses["200"]?.headers?.["cache-control"]);
    expect(secrets, "a route with cache-control: no-store").toBeDefined();
    expect(Object.keys(responsesOf(documents.platform, secrets![1])["429"].headers).sort()).toEqual(["Retry-After", "cache-control"]);
  });
});
