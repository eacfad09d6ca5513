import { readFileSync } from "node:fs";
import { buildSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { defineRoute } from "../../rest-adapter/route-kit/route.ts";
import { currentOperationTypes } from "../../scripts/operation-types-source.ts";
import { GENERATED_PATH, currentRestSchemas, generatedModule } from "../../scripts/rest-schemas-source.ts";
import { operationDataType, renderOperationTypes } from "../../scripts/operation-types.ts";

const SCHEMA = buildSchema(`
  scalar Timestamp
  scalar JSONObject
  scalar Money
  enum Kind { live test }
  type Thing { id: ID! name: String kind: Kind! tags: [String!]! notes: [String] created_at: Timestamp! config: JSONObject }
  type Cat { name: String! lives: Int! }
  type Dog { name: String! good: Boolean! }
  union Pet = Cat | Dog
  type Query { thing(id: ID!): Thing things: [Thing!] pet: Pet! price: Money }
  type Mutation { rename(id: ID!, name: String!): Thing! }
`);

describe("rest-adapter/resources/resources.generated.ts", () => {
  it("is what the committed supergraph, the overlays and the route tables generate (run `npm run generate:operations` when this fails)", async () => {
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(generatedModule(await currentRestSchemas(), currentOperationTypes()));
  });
});

describe("operationDataType", () => {
  it("types scalars, custom scalars, enums, nullability, lists and aliases", () => {
    const type = operationDataType(SCHEMA, "query ($id: ID!) { item: thing(id: $id) { id name kind tags notes created_at config } }", "test");
    expect(type).toBe(
      [
        "{",
        "  item: {",
        "    id: string;",
        "    name: string | null;",
        '    kind: "live" | "test";',
        "    tags: string[];",
        "    notes: (string | null)[] | null;",
        "    created_at: number;",
        "    config: Record<string, unknown> | null;",
        "  } | null;",
        "}",
      ].join("\n"),
    );
  });

  it("merges a field selected twice, types union members by their fragments, and makes @include/@skip fields optional", () => {
    const type = operationDataType(
      SCHEMA,
      "query ($more: Boolean!) { things { id } things { name @include(if: $more) } pet { __typename ... on Cat { name lives } ... on Dog { name } } }",
      "test",
    );
    expect(type).toBe(
      [
        "{",
        "  things: {",
        "    id: string;",
        "    name?: string | null;",
        "  }[] | null;",
        "  pet: {",
        '    __typename: "Cat";',
        "    name: string;",
        "    lives: number;",
        "  } | {",
        '    __typename: "Dog";',
        "    name: string;",
        "  };",
        "}",
      ].join("\n"),
    );
  });

  it("refuses an operation the schema does not validate, or a scalar it has no TypeScript type for, naming the route", () => {
    expect(() => operationDataType(SCHEMA, "{ thing(id: 1) { colour } }", "GET /v0/things")).toThrow(/GET \/v0\/things: Cannot query field "colour"/);
    expect(() => operationDataType(SCHEMA, "{ price }", "GET /v0/price")).toThrow(/GET \/v0\/price: no TypeScript type for scalar Money/);
  });

  it("renders one entry per operationId, and refuses one id for two operations", () => {
    const route = { operationId: "getThing", method: "GET", path: "/v0/things/{id}", operation: "query ($id: ID!) { thing(id: $id) { id } }" };
    expect(renderOperationTypes(SCHEMA, [route, route]).match(/getThing:/g)).toHaveLength(1);
    expect(() => renderOperationTypes(SCHEMA, [route, { ...route, operation: "{ things { id } }" }])).toThrow(/getThing names two different operations/);
  });
});

describe("defineRoute", () => {
  it("types result, status and links from the route's operation", () => {
    const route = defineRoute({
      operationId: "getWallet",
      method: "GET",
      path: "/v0/wallets/{wallet_id}",
      tag: "Wallets",
      summary: "type checks only",
      security: [],
      operation: "query GetWallet($id: Int!) { wallet(id: $id) { id type } }",
      result: (data) => {
        const type: "EOA" | "Safe" = data.wallet.type;
        // @ts-expect-error the operation's data has no such field
        void data.wallet.colour;
        return { id: data.wallet.id, type };
      },
      status: (data) => (data.wallet.type === "Safe" ? 200 : 200),
      links: (body) => ({ self: { href: `/v0/wallets/${body.id satisfies number}` } }),
      responses: {},
      errors: [],
    });
    expect(route.operationId).toBe("getWallet");
  });
});
