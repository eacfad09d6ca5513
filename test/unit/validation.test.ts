import { Type, type TSchema } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { compileValidator, nulCharacterItems, validationItems, type RequestPart } from "../../lib/json-validation.ts";

function itemsFor(schema: TSchema, part: RequestPart, data: unknown) {
  const validate = compileValidator(schema, part);
  if (validate(data)) return [];
  return validationItems(validate.errors ?? [], part, data);
}

describe("ajv errors as FastAPI validation items (spec 2.9)", () => {
  it("reports a missing field at loc [part, ..., field] with input the enclosing object", () => {
    const schema = Type.Object({ name: Type.String(), nested: Type.Object({ id: Type.Integer() }) });
    expect(itemsFor(schema, "body", { nested: {} })).toEqual(
      expect.arrayContaining([
        { type: "missing", loc: ["body", "name"], msg: "Field required", input: { nested: {} }, ctx: {} },
        { type: "missing", loc: ["body", "nested", "id"], msg: "Field required", input: {}, ctx: {} },
      ]),
    );
  });

  it.each([
    [Type.Integer(), "5", "int_type", "Input should be a valid integer"],
    [Type.Number(), "x", "float_type", "Input should be a valid number"],
    [Type.String(), 5, "string_type", "Input should be a valid string"],
    [Type.Boolean(), "yes", "bool_type", "Input should be a valid boolean"],
    [Type.Object({}), [], "model_type", "Input should be a valid dictionary or object"],
    [Type.Array(Type.String()), "a", "list_type", "Input should be a valid list"],
  ])("reports a type error (%#) with the FastAPI type and message, the input and its location", (field, input, type, msg) => {
    const items = itemsFor(Type.Object({ field }), "body", { field: input });
    expect(items).toEqual([{ type, loc: ["body", "field"], msg, input, ctx: {} }]);
  });

  it("reports enum mismatches with the allowed values", () => {
    const schema = Type.Object({ asset_type: Type.Unsafe<string>({ type: "string", enum: ["crypto", "fiat"] }) });
    expect(itemsFor(schema, "query", { asset_type: "stock" })).toEqual([
      { type: "enum", loc: ["query", "asset_type"], msg: "Input should be 'crypto' or 'fiat'", input: "stock", ctx: { expected: "'crypto' or 'fiat'" } },
    ]);
  });

  it("reports a failed literal union once per location", () => {
    const schema = Type.Object({ scopes: Type.Array(Type.Union([Type.Literal("read"), Type.Literal("write")])) });
    const items = itemsFor(schema, "body", { scopes: ["read", "admin"] });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: "literal_error", loc: ["body", "scopes", 1], input: "admin" });
  });

  it("reports pattern mismatches with the pattern", () => {
    const pattern = "^0x[0-9a-fA-F]{40}$";
    expect(itemsFor(Type.Object({ address: Type.String({ pattern }) }), "body", { address: "0x123" })).toEqual([
      { type: "string_pattern_mismatch", loc: ["body", "address"], msg: `String should match pattern '${pattern}'`, input: "0x123", ctx: { pattern } },
    ]);
  });

  it("reports string length, numeric range and item count bounds", () => {
    const schema = Type.Object({
      short: Type.String({ minLength: 2 }),
      long: Type.String({ maxLength: 3 }),
      low: Type.Integer({ minimum: 1 }),
      high: Type.Integer({ maximum: 366 }),
      gt: Type.Number({ exclusiveMinimum: 0 }),
      few: Type.Array(Type.String(), { minItems: 1 }),
      many: Type.Array(Type.String(), { maxItems: 1 }),
    });
    const items = itemsFor(schema, "body", { short: "a", long: "abcd", low: 0, high: 367, gt: 0, few: [], many: ["a", "b"] });
    const byField = Object.fromEntries(items.map((i) => [i.loc[1], i]));
    expect(byField.short).toEqual({ type: "string_too_short", loc: ["body", "short"], msg: "String should have at least 2 characters", input: "a", ctx: { min_length: 2 } });
    expect(byField.long).toEqual({ type: "string_too_long", loc: ["body", "long"], msg: "String should have at most 3 characters", input: "abcd", ctx: { max_length: 3 } });
    expect(byField.low).toEqual({ type: "greater_than_equal", loc: ["body", "low"], msg: "Input should be greater than or equal to 1", input: 0, ctx: { ge: 1 } });
    expect(byField.high).toEqual({ type: "less_than_equal", loc: ["body", "high"], msg: "Input should be less than or equal to 366", input: 367, ctx: { le: 366 } });
    expect(byField.gt).toMatchObject({ type: "greater_than", ctx: { gt: 0 }, input: 0 });
    expect(byField.few).toMatchObject({ type: "too_short", ctx: { min_length: 1 }, input: [] });
    expect(byField.many).toMatchObject({ type: "too_long", ctx: { max_length: 1 }, input: ["a", "b"] });
  });

  it("reports every failure at once (allErrors), each item with loc, msg, type, input and ctx", () => {
    const schema = Type.Object({ a: Type.Integer(), b: Type.String({ minLength: 1 }), c: Type.Boolean() });
    const items = itemsFor(schema, "body", { a: "x", b: "" });
    expect(items.map((i) => i.loc)).toEqual(expect.arrayContaining([["body", "a"], ["body", "b"], ["body", "c"]]));
    for (const item of items) expect(Object.keys(item).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
  });

  it("reports forbidden extra properties at their own location", () => {
    const schema = Type.Object({ a: Type.String() }, { additionalProperties: false });
    expect(itemsFor(schema, "body", { a: "x", extra: 1 })).toEqual([{ type: "extra_forbidden", loc: ["body", "extra"], msg: "Extra inputs are not permitted", input: 1, ctx: {} }]);
  });

  it("coerces query and path text like FastAPI, but never a JSON body", () => {
    const schema = Type.Object({ chain_id: Type.Integer({ minimum: 1 }), is_eoa: Type.Boolean() });
    const query = { chain_id: "8453", is_eoa: "true" };
    expect(itemsFor(schema, "query", query)).toEqual([]);
    expect(query).toEqual({ chain_id: 8453, is_eoa: true });
    expect(itemsFor(Type.Object({ wallet_id: Type.Integer() }), "path", { wallet_id: "abc" })).toEqual([
      { type: "int_type", loc: ["path", "wallet_id"], msg: "Input should be a valid integer", input: "abc", ctx: {} },
    ]);
    expect(itemsFor(schema, "body", { chain_id: "8453", is_eoa: true })).toEqual([
      { type: "int_type", loc: ["body", "chain_id"], msg: "Input should be a valid integer", input: "8453", ctx: {} },
    ]);
  });

  it("escapes JSON-pointer segments back into keys", () => {
    const schema = Type.Object({ "a/b": Type.Integer() });
    expect(itemsFor(schema, "body", { "a/b": "x" })[0]?.loc).toEqual(["body", "a/b"]);
  });
});

describe("nulCharacterItems", () => {
  it("finds NUL in strings and keys at any depth, with their location, and nothing in clean values", () => {
    expect(nulCharacterItems({ a: "ok", b: ["x", "y\u0000z"], "k\u0000": 1, c: { d: "\u0000" } }, "body").map((item) => item.loc)).toEqual([
      ["body", "b", 1],
      ["body", "k\u0000"],
      ["body", "c", "d"],
    ]);
    expect(nulCharacterItems("a\u0000", "path")[0]).toMatchObject({ type: "string_nul", loc: ["path"] });
    expect(nulCharacterItems({ a: "é😀", b: [1, null, true] }, "query")).toEqual([]);
  });

  it("walks 100,000 levels without exhausting the call stack (issue 27: it recursed, and a deep body answered 500)", () => {
    const nest = (leaf: unknown) => {
      let value = leaf;
      for (let level = 0; level < 100_000; level++) value = level % 2 ? { k: value } : [value];
      return value;
    };
    const [item, ...rest] = nulCharacterItems({ description: nest("x\u0000") }, "body");
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ type: "string_nul", input: "x\u0000" });
    expect(item!.loc).toHaveLength(100_002);
    expect(item!.loc.slice(0, 4)).toEqual(["body", "description", "k", 0]);
    expect(nulCharacterItems({ description: nest("x") }, "body")).toEqual([]);
  });

  it("reports at most 10 places, in document order", () => {
    const items = nulCharacterItems({ list: Array.from({ length: 50 }, (_, i) => `${i}\u0000`) }, "body");
    expect(items.map((item) => item.loc)).toEqual(Array.from({ length: 10 }, (_, i) => ["body", "list", i]));
  });
});
