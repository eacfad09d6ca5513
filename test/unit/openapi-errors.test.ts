import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../rest-adapter/openapi.ts";
import { defineRoute } from "../../rest-adapter/route.ts";

const route = (path: string) =>
  defineRoute({
    operationId: path === "/health" ? "health" : "thing",
    method: "GET",
    path,
    tag: "Things",
    summary: "A thing",
    security: [],
    operation: "query Thing { thing }",
    result: (data) => data.thing,
    responses: { 200: { description: "The thing", schema: Type.Object({}) } },
    errors: [422],
  });

function responses(path: string) {
  const document = buildOpenApiDocument({ title: "t", description: "d", serverUrl: "http://x.test", routes: [route(path)] }) as { paths: Record<string, { get: { responses: Record<string, any> } }> };
  return document.paths[path]!.get.responses;
}

describe("error responses in the OpenAPI document", () => {
  it("documents 429 on every counted route, not on /health", () => {
    expect(Object.keys(responses("/v0/things"))).toEqual(["200", "422", "429"]);
    expect(Object.keys(responses("/health"))).toEqual(["200", "422"]);
  });

  it("documents a 422 as either the validation item list or a domain ProblemDetail", () => {
    expect(responses("/v0/things")["422"].content["application/problem+json"].schema).toMatchObject({
      anyOf: [{ $ref: "#/components/schemas/HTTPValidationError" }, { $ref: "#/components/schemas/ProblemDetail" }],
    });
  });
});
