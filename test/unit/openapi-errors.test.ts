import { Type } from "@sinclair/typebox";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { errorDefinition } from "../../lib/errors/catalogue.ts";
import { identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { buildOpenApiDocument, type DocumentedRoute } from "../../rest-adapter/route-kit/openapi.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";
import { derivedErrorCodes, errorStatuses, routeErrorCodes, type Route } from "../../rest-adapter/route-kit/route.ts";
import { COMPONENTS } from "../../rest-adapter/route-kit/components.ts";
import { problemSchema } from "../../rest-adapter/route-kit/schemas.ts";
import { platformWebhooks } from "../../rest-adapter/webhooks/index.ts";
import { webhookDocumentation } from "../../rest-adapter/webhooks/webhooks.ts";
import { responsesOf } from "../support/openapi-document.ts";

// ajv and ajv-formats are CommonJS with a default export
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

const route = (path: string, extra: Partial<Route> = {}): Route => ({
  operationId: path === "/health" ? "health" : "thing",
  method: "GET",
  path,
  tag: "Things",
  summary: "A thing",
  security: [],
  query: Type.Object({ limit: Type.Optional(Type.Integer()) }),
  operation: "query Thing { thing }",
  result: () => ({}),
  responses: { 200: { description: "The thing", schema: Type.Object({}) } },
  errors: [],
  ...extra,
});

type Operation = { responses: Record<string, any> };

function document(routes: DocumentedRoute[], style: { errorStyle?: "platform" | "identity"; docsUrl?: string } = {}) {
  return buildOpenApiDocument({ title: "t", description: "d", serverUrl: "http://x.test", routes, ...style }) as { paths: Record<string, Record<string, Operation>> };
}

function responses(path: string, extra: Partial<Route> = {}, style = {}) {
  const r = route(path, extra);
  return document([r], style).paths[path]![r.method.toLowerCase()]!.responses;
}

const webhooks = platformWebhooks({ walletClaimWebhookSecrets: [], kycWebhookToleranceSeconds: 300, bankingWebhookSecrets: [], bankingWebhookToleranceSeconds: 300, sandbox: false, internalSecret: "s".repeat(32) }).map(webhookDocumentation);
const everyRoute: DocumentedRoute[] = [...platformRoutes, ...identityRoutes, ...webhooks];

describe("error responses in the OpenAPI document", () => {
  it("documents 429 on every counted route, not on /health, and the generic failures everywhere", () => {
    expect(Object.keys(responses("/v0/things"))).toEqual(["200", "422", "429", "500", "502", "503"]);
    expect(Object.keys(responses("/health"))).toEqual(["200", "422", "500", "502", "503"]);
  });

  it("documents a 422 as either the validation item list or a domain ProblemDetail", () => {
    expect(responses("/v0/things")["422"].content["application/problem+json"].schema).toMatchObject({
      anyOf: [{ $ref: "#/components/schemas/HTTPValidationError" }, { $ref: "#/components/schemas/ProblemDetail" }],
    });
  });

  it("lists each code of a status in its description, with an example keyed by the code in the platform's type URI style", () => {
    const notFound = responses("/v0/things/{id}", { errors: ["WAL-404-001", "PAT-404-001"], params: Type.Object({ id: Type.Integer() }) })["404"];
    expect(notFound.description).toBe(
      "Not found\n\n- `PAT-404-001` Token Not Found: No personal access token with this id belongs to the user.\n- `WAL-404-001` Wallet Not Found: No wallet with this id belongs to the user.",
    );
    const examples = notFound.content["application/problem+json"].examples;
    expect(Object.keys(examples)).toEqual(["PAT-404-001", "WAL-404-001"]);
    expect(examples["WAL-404-001"]).toEqual({
      summary: "Wallet Not Found",
      value: {
        type: "http://x.test/errors/wal-404-001",
        title: "Wallet Not Found",
        status: 404,
        detail: "No wallet with this id belongs to the user.",
        instance: "/v0/things/{id}",
        error_code: "WAL-404-001",
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });
  });

  it("renders the identity host's examples in its own style: {docs_url}/errors/<type name> and documentation", () => {
    const identity = responses("/v0/organisation/{org_id}", { security: ["DashboardSession"], errors: ["IDS-404-001"] }, { errorStyle: "identity", docsUrl: "http://docs.test" });
    expect(identity["404"].content["application/problem+json"].examples["IDS-404-001"].value).toMatchObject({
      type: "http://docs.test/errors/not_found",
      documentation: "http://docs.test/errors/IDS-404-001",
    });
    // generic errors look like the host's own there too
    expect(identity["401"].content["application/problem+json"].examples["IDS-401-002"].value.type).toBe("http://docs.test/errors/invalid_session");
    expect(identity["500"].content["application/problem+json"].examples["GEN-500-001"].value.type).toBe("http://docs.test/errors/internal_server_error");
  });

  it("shows GEN-422-001 as the item list the adapter answers", () => {
    const example = responses("/v0/things")["422"].content["application/problem+json"].examples["GEN-422-001"].value;
    expect(example.detail).toEqual([{ type: "missing", loc: ["query", "limit"], msg: "Field required", input: null, ctx: {} }]);
  });

  it("every example of the real documents validates against its response's schema", () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    for (const component of COMPONENTS) ajv.addSchema(component);
    const validators = new Map([422, 500].map((status) => [status, ajv.compile(problemSchema(status))]));
    for (const style of [{}, { errorStyle: "identity" as const, docsUrl: "http://docs.test" }]) {
      const built = document(everyRoute, style);
      for (const [path, methods] of Object.entries(built.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          for (const [status, response] of Object.entries(responsesOf(built, op))) {
            expect(typeof response.description, `${method} ${path} ${status}`).toBe("string");
            const examples = response.content?.["application/problem+json"]?.examples ?? {};
            for (const [code, example] of Object.entries<{ value: { error_code: string; status: number } }>(examples)) {
              const validate = validators.get(Number(status) === 422 ? 422 : 500)!;
              expect(validate(example.value), `${method} ${path} ${code}: ${ajv.errorsText(validate.errors)}`).toBe(true);
              expect([example.value.error_code, example.value.status]).toEqual([code, Number(status)]);
            }
          }
        }
      }
    }
  });
});

describe("a route's error codes", () => {
  const codes = (extra: Partial<Route>) => routeErrorCodes(route("/v0/things", { query: undefined, ...extra }));

  it("adds GEN-422-001 where the adapter validates, and the body refusals on every method but GET", () => {
    expect(codes({})).not.toContain("GEN-422-001");
    expect(codes({ params: Type.Object({ id: Type.Integer() }) })).toContain("GEN-422-001");
    expect(codes({ method: "DELETE" })).toEqual(expect.arrayContaining(["GEN-413-001", "GEN-415-001", "GEN-422-001"]));
    expect(codes({})).not.toContain("GEN-415-001");
  });

  it("answers a route's own body and rate-limit codes instead of the generic ones", () => {
    const exchange = codes({ method: "POST", body: Type.Object({}), validateBody: false, bodyError: "PINT-400-001", rateLimitError: "PINT-429-001", security: ["ApiKey"] });
    expect(exchange).toEqual(expect.arrayContaining(["PINT-400-001", "PINT-429-001"]));
    expect(exchange).not.toEqual(expect.arrayContaining(["GEN-413-001"]));
    expect(exchange.filter((code) => ["GEN-413-001", "GEN-415-001", "GEN-422-001", "GEN-429-001"].includes(code))).toEqual([]);
  });

  it("adds the 401s of every credential its host reads, none for an optional credential, and IDS-403-002 on dashboard-only routes", () => {
    const platform = codes({ security: ["PlatformJwt"] });
    expect(platform.filter((code) => errorDefinition(code).status === 401)).toEqual(["USR-401-001", "USR-401-002", "USR-401-003", "USR-401-004", "USR-401-005"]);
    expect(codes({ security: ["PlatformPat"], optionalSecurity: true }).filter((code) => errorDefinition(code).status === 401)).toEqual([]);
    const dashboard = codes({ security: ["DashboardSession"] });
    expect(dashboard.filter((code) => errorDefinition(code).status === 401)).toEqual(["IDS-401-001", "IDS-401-002", "PINT-401-003", "PINT-401-004", "PINT-401-006"]);
    expect(dashboard).toContain("IDS-403-002");
    expect(codes({ security: ["ApiKey", "PintToken"] })).not.toContain("IDS-403-002");
    expect(codes({}).filter((code) => errorDefinition(code).status === 401)).toEqual([]);
  });

  it("reads a webhook's body as raw bytes: 413 and its own 422, never 415", () => {
    const receiver = webhooks.find((w) => w.operationId === "walletClaimedWebhook")!;
    expect(routeErrorCodes(receiver)).toEqual(["WHK-401-001", "GEN-413-001", "GEN-422-001", "GEN-429-001", "GEN-500-001", "GEN-502-001", "GEN-503-001", "GEN-503-002", "GEN-503-003"]);
  });

  it("derives the statuses from the catalogue, by status", () => {
    expect(errorStatuses(route("/v0/things", { errors: ["WAL-409-001", "WAL-404-001"] }))).toEqual([404, 409, 422, 429, 500, 502, 503]);
  });

  it("never lists a derived code on a route, nor a code twice, nor an unknown path's 405", () => {
    for (const r of everyRoute) {
      const derived = new Set(derivedErrorCodes(r));
      expect(r.errors.filter((code) => derived.has(code)), r.operationId).toEqual([]);
      expect(new Set(r.errors).size, r.operationId).toBe(r.errors.length);
      expect(r.errors, r.operationId).not.toContain("GEN-405-001");
    }
  });

  it("leaves the credentials' 401s, of either host, to the derivation", () => {
    const credential401s = new Set(
      (["PlatformJwt", "DashboardSession"] as const).flatMap((scheme) => codes({ security: [scheme] })).filter((code) => errorDefinition(code).status === 401),
    );
    expect(credential401s.size).toBe(10);
    for (const r of everyRoute) expect(r.errors.filter((code) => credential401s.has(code)), r.operationId).toEqual([]);
  });
});
