import { Type } from "@sinclair/typebox";
import type { GraphQLFormattedError } from "graphql";
import { describe, expect, it } from "vitest";
import { appError, validationError, type AppError } from "../../lib/errors/app-error.ts";
import { errorFromGraphQL, fieldPartOf } from "../../rest-adapter/route-kit/graphql-errors.ts";
import { identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";

/** An error as it reaches the adapter: its extensions through JSON, as the gateway passes them on. */
const asReceived = (error: AppError): GraphQLFormattedError => ({ message: error.detail, extensions: JSON.parse(JSON.stringify(error.extensions)) });

const authorize = fieldPartOf({
  method: "POST",
  params: Type.Object({ card_id: Type.String() }),
  body: Type.Object({ amount: Type.String(), merchant: Type.Object({ mcc: Type.String() }) }),
});
const refresh = fieldPartOf({ method: "POST", query: Type.Object({ limit: Type.Integer() }) });
const list = fieldPartOf({ method: "GET", query: Type.Object({ limit: Type.Integer() }) });

describe("domain validation items on REST", () => {
  it("can tell a route's parts apart by field name: no route declares a name in two of path, query and body", () => {
    for (const route of [...platformRoutes, ...identityRoutes]) {
      const names = [route.params, route.query, route.body].flatMap((schema) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}));
      expect(names.filter((name, index) => names.indexOf(name) !== index), `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it("puts each field under the part whose schema declares it, else the body of a write and the query of a read", () => {
    expect([authorize("card_id"), authorize("amount"), authorize("merchant"), authorize("note"), authorize(0), authorize()]).toEqual(["path", "body", "body", "body", "body", "body"]);
    expect([refresh("limit"), refresh("offset"), refresh()]).toEqual(["query", "body", "body"]);
    expect([list("limit"), list("category"), list()]).toEqual(["query", "query", "query"]);
  });

  it("answers a domain item's neutral loc under its part, item for item as the adapter's own validation words it", () => {
    const error = errorFromGraphQL([asReceived(validationError(["merchant", "mcc"], "Input should be a four-digit merchant category code", "12", "string_pattern_mismatch"))], authorize);
    expect(error).toMatchObject({ code: "GEN-422-001", status: 422 });
    expect(JSON.stringify(error.validation)).toBe(
      JSON.stringify([{ type: "string_pattern_mismatch", loc: ["body", "merchant", "mcc"], msg: "Input should be a four-digit merchant category code", input: "12", ctx: {} }]),
    );
    expect(errorFromGraphQL([asReceived(validationError(["card_id"], "Value error, the card's funding source no longer settles", "crd_1"))], authorize).validation![0]!.loc).toEqual(["path", "card_id"]);
    expect(errorFromGraphQL([asReceived(validationError([], "Give category, note or both", {}, "missing"))], "body").validation![0]!.loc).toEqual(["body"]);
    expect(errorFromGraphQL([asReceived(validationError(["limit"], "Input should be between 1 and 200", 0))], refresh).validation![0]!.loc).toEqual(["query", "limit"]);
  });

  it("passes other catalogue errors on as they are, Retry-After included", () => {
    const error = errorFromGraphQL([asReceived(appError("CRD-429-001", "At most 5 reveals of a card's details per hour; retry in 60 seconds.", { retryAfter: 60 }))], authorize);
    expect(error).toMatchObject({ code: "CRD-429-001", detail: "At most 5 reveals of a card's details per hour; retry in 60 seconds.", retryAfter: 60 });
    expect(error.validation).toBeUndefined();
  });

  it("puts a variable the operation refuses at the part the route's input as a whole came from", () => {
    const refused = { message: 'Variable "$input" got invalid value 1; Expected type "String".' };
    expect(errorFromGraphQL([refused], list).validation).toEqual([{ type: "value_error", loc: ["query"], msg: 'Expected type "String".', input: null, ctx: { variable: "input" } }]);
    expect(errorFromGraphQL([refused], authorize).validation![0]!.loc).toEqual(["body"]);
  });
});
