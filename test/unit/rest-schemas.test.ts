import { Type } from "@sinclair/typebox";
import { buildSchema } from "graphql";
import { describe, expect, it } from "vitest";
import type { RestResource } from "../../rest-adapter/route-kit/resource-overlay.ts";
import { Address } from "../../rest-adapter/route-kit/schemas.ts";
import { renderRestSchemas } from "../../scripts/rest-schemas.ts";

const SCHEMA = buildSchema(`
  scalar Timestamp
  scalar JSONObject
  """What a thing is."""
  enum Kind { live test }
  type Thing {
    """thg_<id>"""
    id: ID!
    name: String
    kind: Kind!
    previous: Kind
    tags: [String!]!
    seen_at: Timestamp!
    part: Part!
    owner: Owner
    pages(first: Int): [Thing!]!
    """Its settings."""
    config: JSONObject
  }
  type Part { size: Int! note: String }
  type Owner { id: ID! }
  input CreateThingInput {
    """live or test"""
    kind: String!
    """Its name."""
    name: String
    previous: String
    tags: [String!]
    part: PartInput
    seen_at: Timestamp
    config: JSONObject
  }
  input PartInput { size: Int! note: String }
  type Query { thing: Thing }
`);

const Config = Type.Object({ colour: Type.String() });

function render(resource: RestResource, exports: Record<string, unknown> = {}): string {
  return renderRestSchemas(SCHEMA, [{ name: "thing", exports: { resource, ...exports } }]);
}

describe("renderRestSchemas", () => {
  const resource: RestResource = {
    type: "Thing",
    inputs: { CreateThingInput: "Thing" },
    types: {
      Thing: {
        fields: {
          name: { orNull: { description: "what you call it" }, maxLength: 64 },
          tags: { description: "labels", item: { pattern: "^[a-z]+$" } },
          config: { schema: Config },
        },
        omit: ["owner"],
      },
      Part: { description: "one part", fields: { size: { minimum: 0 } } },
      CreateThingInput: { fields: { name: { acceptsNull: false, maxLength: 64 }, tags: { maxItems: 3 } } },
    },
  };
  const source = render(resource, { Config });

  it("lists the routes an overlay holds for the platform host, made with the generated module's shapes", () => {
    expect(source).toContain("export const RESOURCE_ROUTES = (): Route[] => [];");
    const withRoutes = render(resource, { Config, routes: () => [] });
    expect(withRoutes).toContain('import { Config, routes as thingRoutes } from "./thing.ts";');
    expect(withRoutes).toContain("export const RESOURCE_ROUTES = (): Route[] => [...thingRoutes(generated)];");
  });

  it("selects every field without arguments, nested types' too, less `omit`", () => {
    expect(source).toContain('export const THING_FIELDS = "id name kind previous tags seen_at part { size note } config";');
  });

  it("answers each selected field, nullable ones as a union with null (a flat one for enums; GraphQL's description on it, a replaced shape's too), timestamps as EpochMs, with _links", () => {
    for (const line of [
      'id: Type.String({ description: "thg_<id>" }),',
      'name: Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: "what you call it" }),',
      'kind: Type.Union([Type.Literal("live"), Type.Literal("test")]),',
      'previous: Type.Union([Type.Literal("live"), Type.Literal("test"), Type.Null()]),',
      'tags: Type.Array(Type.String({ pattern: "^[a-z]+$" }), { description: "labels" }),',
      "seen_at: EpochMs,",
      "size: Type.Integer({ minimum: 0 }),",
      "note: Type.Union([Type.String(), Type.Null()]),",
      '}, { description: "one part" }),',
      'config: Type.Union([Config, Type.Null()], { description: "Its settings." }),',
      "_links: Type.Optional(Links),",
      '}, { $id: "Thing" });',
    ])
      expect(source).toContain(line);
    expect(source).toContain('import { Config } from "./thing.ts";');
    expect(source).not.toMatch(/owner|pages/);
  });

  it("takes a body from the input type: non-null fields required, others optional and nullable (a nullable enum as one flat union), a String field the mirrored enum's values (not its GraphQL description, which lists them)", () => {
    expect(source).toContain(
      [
        "export const CreateThingInput = Type.Object({",
        '  kind: Type.Union([Type.Literal("live"), Type.Literal("test")]),',
        '  name: Type.Optional(Type.String({ description: "Its name.", maxLength: 64 })),',
        '  previous: Type.Optional(Type.Union([Type.Literal("live"), Type.Literal("test"), Type.Null()])),',
        "  tags: Type.Optional(Type.Union([Type.Array(Type.String(), { maxItems: 3 }), Type.Null()])),",
        "  part: Type.Optional(Type.Union([Type.Object({",
        "    size: Type.Integer(),",
        "    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),",
        "  }), Type.Null()])),",
        "  seen_at: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),",
        "  config: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),",
        "});",
      ].join("\n"),
    );
  });

  it("answers a `ref` field with the other resource's component and selects its fields; an `expand` one only when asked for; `links: false` adds no _links", () => {
    const owner: RestResource = { type: "Owner", types: {}, links: false };
    const thing: RestResource = { type: "Thing", types: { Thing: { omit: ["part", "config"], fields: { owner: { ref: true, expand: true } } } } };
    const both = renderRestSchemas(SCHEMA, [
      { name: "owner", exports: { resource: owner } },
      { name: "thing", exports: { resource: thing } },
    ]);
    expect(both).toContain('export const THING_FIELDS = "id name kind previous tags seen_at";');
    expect(both).toContain('export const THING_EXPANSIONS = "owner @include(if: $owner) { id }";');
    expect(both).toContain('owner: Type.Optional(Type.Union([Type.Ref("Owner"), Type.Null()])),');
    expect(both).toContain(["export const Owner = Type.Object({", '  id: Type.String(),', '}, { $id: "Owner" });'].join("\n"));
    expect(both).not.toContain("OWNER_EXPANSIONS");
    expect(() => render({ type: "Thing", types: { Thing: { omit: ["part", "config"], fields: { owner: { ref: true } } } } })).toThrow(/Thing.owner: ref, but no resource of rest-adapter\/resources\/ answers Owner/);
  });

  it("writes a resource with component: false as a shape for routes to write inline, which no ref may answer", () => {
    const inline = renderRestSchemas(SCHEMA, [{ name: "owner", exports: { resource: { type: "Owner", types: {}, component: false } satisfies RestResource } }]);
    expect(inline).toContain(["export const Owner = Type.Object({", "  id: Type.String(),", "});"].join("\n"));
    const thing: RestResource = { type: "Thing", types: { Thing: { omit: ["part", "config"], fields: { owner: { ref: true } } } } };
    expect(() =>
      renderRestSchemas(SCHEMA, [
        { name: "owner", exports: { resource: { type: "Owner", types: {}, component: false } } },
        { name: "thing", exports: { resource: thing } },
      ]),
    ).toThrow(/Thing.owner: ref, but Owner is written inline, not a component/);
  });

  it("lists the values of a String field GraphQL leaves open (`values`), in answers and bodies, a nullable one as one flat union, and refuses them elsewhere", () => {
    const listed = render({ type: "Thing", types: { Thing: { omit: ["owner"], fields: { name: { values: ["x", "y"], orNull: { description: "x, y or nothing" } } } } } });
    expect(listed).toContain('name: Type.Union([Type.Literal("x"), Type.Literal("y"), Type.Null()], { description: "x, y or nothing" }),');
    const body = render({ type: "Thing", inputs: { CreateThingInput: "Thing" }, types: { Thing: { omit: ["owner"] }, CreateThingInput: { fields: { name: { values: ["x", "y"] } } } } });
    expect(body).toContain('  name: Type.Optional(Type.Union([Type.Literal("x"), Type.Literal("y"), Type.Null()], { description: "Its name." })),');
    expect(() => render({ type: "Thing", types: { Thing: { omit: ["owner"], fields: { kind: { values: ["live"] } } } } })).toThrow(/Thing.kind: values are for a String field/);
  });

  it("answers an instant as EpochMs, with GraphQL's description on a nullable one's union with null", () => {
    const schema = buildSchema(`scalar Timestamp type Visit { """When it began.""" started_at: Timestamp! """When it ended; null while under way.""" ended_at: Timestamp } type Query { visit: Visit }`);
    const visit = renderRestSchemas(schema, [{ name: "visit", exports: { resource: { type: "Visit", types: {} } } }]);
    expect(visit).toContain("started_at: EpochMs,");
    expect(visit).toContain('ended_at: Type.Union([EpochMs, Type.Null()], { description: "When it ended; null while under way." }),');
  });

  it("answers an instant with the overlay's description as an integer of its own, and refuses any other option", () => {
    expect(render({ type: "Thing", types: { Thing: { fields: { seen_at: { description: "when it was last seen" } } } } })).toContain('seen_at: Type.Integer({ description: "when it was last seen" }),');
    expect(() => render({ type: "Thing", types: { Thing: { fields: { seen_at: { description: "when", minimum: 0 } } } } })).toThrow(/Thing.seen_at: a Timestamp answers as EpochMs, which takes a description only/);
  });

  it("imports a replacement that is one of REST's shared shapes from rest-adapter/route-kit/schemas.ts", () => {
    const shared = render({ type: "Thing", types: { Thing: { omit: ["owner"] }, CreateThingInput: { fields: { name: { schema: Address } } } }, inputs: { CreateThingInput: "Thing" } });
    expect(shared).toContain('import { Address, EpochMs, Links } from "../route-kit/schemas.ts";');
    expect(shared).toContain("name: Type.Optional(Type.Union([Address, Type.Null()])),");
  });

  it("answers a union or an interface as one of its object types, each titled and selected with a fragment; a discriminator answers each one's value as a literal", () => {
    const schema = buildSchema(`
      type Card { kind: String! last_four: String! }
      type Bank { kind: String! iban: String }
      union Source = Card | Bank
      interface Named { name: String! }
      type Person implements Named { name: String! age: Int! }
      type Place implements Named { name: String! }
      type Payment { source: Source! payer: Named }
      type Query { payment: Payment }
    `);
    const mapping = { card: "Card", bank: "Bank" };
    const payment = (types: RestResource["types"]) => renderRestSchemas(schema, [{ name: "payment", exports: { resource: { type: "Payment", component: false, types } } }]);
    const source = payment({ Source: { discriminator: { propertyName: "kind", mapping } }, Card: { fields: { last_four: { pattern: "^[0-9]{4}$" } } } });
    expect(source).toContain('export const PAYMENT_FIELDS = "source { ... on Card { kind last_four } ... on Bank { kind iban } } payer { ... on Person { name age } ... on Place { name } }";');
    expect(source).toContain(
      [
        "  source: Type.Union([",
        "    Type.Object({",
        '      kind: Type.Literal("card"),',
        '      last_four: Type.String({ pattern: "^[0-9]{4}$" }),',
        '    }, { title: "Card" }),',
        "    Type.Object({",
        '      kind: Type.Literal("bank"),',
        "      iban: Type.Union([Type.String(), Type.Null()]),",
        '    }, { title: "Bank" }),',
        '  ], { discriminator: { propertyName: "kind" } }),',
        "  payer: Type.Union([Type.Union([",
      ].join("\n"),
    );
    expect(source).toContain('    }, { title: "Place" }),\n  ]), Type.Null()]),');
    expect(() => payment({ Source: { discriminator: { propertyName: "kind", mapping: { card: "Card" } } } })).toThrow(/the discriminator of Source maps no value to Bank/);
    expect(() => payment({ Source: { discriminator: { propertyName: "iban", mapping } } })).toThrow(/Card has no non-null iban to discriminate by/);
    expect(() => payment({ Source: { discriminator: { propertyName: "kind", mapping } }, Card: { fields: { kind: { description: "card" } } } })).toThrow(/Card.kind: the discriminator answers its literal/);
    expect(() => payment({ Payment: { discriminator: { propertyName: "kind", mapping } } })).toThrow(/Payment is no union or interface to discriminate/);
  });

  it("selects and answers the fields `order` names first, in that order, the others after in GraphQL's", () => {
    const ordered = render({ type: "Thing", types: { Thing: { omit: ["owner", "part", "config"], order: ["seen_at", "name"] } } });
    expect(ordered).toContain('export const THING_FIELDS = "seen_at name id kind previous tags";');
    expect(ordered).toMatch(/seen_at: EpochMs,\n  name: Type.Union\(\[Type.String\(\), Type.Null\(\)\]\),\n  id:/);
    expect(() => render({ type: "Thing", types: { Thing: { omit: ["owner"], order: ["owner"] } } })).toThrow(/Thing.owner is both omitted and ordered/);
    expect(() => render({ type: "Thing", types: { Thing: { omit: ["owner"], order: ["colour"] } } })).toThrow(/Thing has no field colour/);
  });

  it("refuses an overlay that names what the GraphQL type lacks, a type it never reaches, or a replacement its module does not export", () => {
    expect(() => render({ type: "Thing", types: { Thing: { fields: { colour: {} } } } })).toThrow(/thing: Thing has no field colour/);
    expect(() => render({ type: "Thing", types: { Thing: { fields: { pages: {} } } } })).toThrow(/Thing.pages takes arguments/);
    expect(() => render({ type: "Thing", types: { Thing: { omit: ["owner"] }, Owner: {} } })).toThrow(/thing: Owner is overlaid but not part of Thing/);
    expect(() => render({ type: "Thing", types: { Thing: { fields: { config: { schema: Config } } } } })).toThrow(/Thing.config: export the schema/);
    expect(() => render({ type: "Thing", types: { Thing: { fields: { seen_at: { examples: [1] } } } } })).toThrow(/Thing.seen_at: a Timestamp answers as EpochMs/);
  });
});
