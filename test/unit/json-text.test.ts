import { parse, type FieldNode, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { JsonText, JsonTextAnswers, selectsExactly, stringifyJson, stringifyJsonBytes } from "../../lib/json-text.ts";

function firstField(source: string): FieldNode {
  return (parse(source).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
}

const selectionOf = (source: string) => (parse(source).definitions[0] as OperationDefinitionNode).selectionSet;

describe("stringifyJson", () => {
  it("writes what JSON.stringify writes for values without JsonText", () => {
    const nullPrototype = Object.assign(Object.create(null), { b: 1, a: [1, undefined, () => 1, null] });
    const values: unknown[] = [
      { a: 1, b: "x\"\\\n\u0001é😀\u2028", c: null, d: undefined, e: [true, false, { f: 1.5e-7 }], g: new Date(0), h: () => 1, 2: "numeric key first" },
      [undefined, Symbol("s"), NaN, -0, 1e21, "s"],
      nullPrototype,
      { toJSON: () => ({ replaced: true }) },
      "plain",
      42,
      null,
      [],
      {},
    ];
    for (const value of values) {
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
      expect(stringifyJsonBytes(value).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    }
    expect(stringifyJson(undefined)).toBeUndefined();
    expect(() => stringifyJsonBytes(undefined)).toThrow(TypeError);
  });

  it("writes a JsonText's text where the value goes, at any depth", () => {
    const items = [{ id: "a", n: 1 }];
    const page = { items: new JsonText(JSON.stringify(items)), pagination: { total: 1 }, nested: [new JsonText("null"), { deep: new JsonText('{"x":[1,2]}') }] };
    expect(stringifyJson(page)).toBe(JSON.stringify({ items, pagination: { total: 1 }, nested: [null, { deep: { x: [1, 2] } }] }));
    expect(stringifyJson(new JsonText("[1]"))).toBe("[1]");
  });

  it("writes a JsonText in a class instance, a shaped object and one whose toJSON stringifies on its own", () => {
    const Shaped = function Shaped() {} as unknown as new () => Record<string, unknown>;
    Shaped.prototype = Object.create(null);
    const shaped = Object.assign(new Shaped(), { items: new JsonText('[{"id":"a"}]'), total: 1 });
    class Page {
      constructor(readonly items: JsonText) {}
    }
    // a toJSON writing its own JSON: the marker it holds is escaped again, so the texts are written as values
    const ownWriter = { toJSON: () => JSON.stringify({ inner: new JsonText("[1]") }) };
    const value = { shaped, page: new Page(new JsonText("[2]")), own: ownWriter, last: new JsonText('"end"') };
    const expected = JSON.stringify({ shaped: { items: [{ id: "a" }], total: 1 }, page: { items: [2] }, own: JSON.stringify({ inner: [1] }), last: "end" });
    expect(stringifyJson(value)).toBe(expected);
    expect(stringifyJsonBytes(value).toString()).toBe(expected);
  });

  it("writes a JsonText outside stringifyJson as the value its text is, and data shaped like a marker as it is", () => {
    expect(JSON.stringify({ items: new JsonText('[{"id":"a"}]') })).toBe('{"items":[{"id":"a"}]}');
    const lookalike = { note: "\u00000123456789abcdef0123456789abcdef:0", items: new JsonText("[3]") };
    expect(stringifyJson(lookalike)).toBe(JSON.stringify({ note: lookalike.note, items: [3] }));
  });

  it("writes the same text as UTF-8 bytes, multi-byte characters in a JsonText and around it included", () => {
    const items = [{ id: "é", name: "東京 😀", note: "\u2028\u0001" }];
    const page = { before: "ü", items: new JsonText(JSON.stringify(items)), after: { list: [new JsonText('"😀"'), undefined, () => 1], empty: {}, none: [] }, skipped: undefined };
    const text = JSON.stringify({ before: "ü", items, after: { list: ["😀", null, null], empty: {}, none: [] } });
    expect(stringifyJson(page)).toBe(text);
    expect(stringifyJsonBytes(page).equals(Buffer.from(text, "utf8"))).toBe(true);
    expect(stringifyJsonBytes(new JsonText("[]")).toString()).toBe("[]");
  });
});

describe("JsonTextAnswers", () => {
  it("refuses offers outside `during`; there puts each offered text at its path in the data", async () => {
    const answers = new JsonTextAnswers();
    expect(answers.offer(["transactions", "items"], "[]")).toBe(false);
    const result = await answers.during(async () => {
      expect(answers.offer(["transactions", "items"], '[{"id":"a"}]')).toBe(true);
      // a path under a field that failed (null) is left alone
      expect(answers.offer(["failed", "items"], "[1]")).toBe(true);
      return { data: { transactions: { items: [], pagination: { total: 1 } }, failed: null } as Record<string, unknown> };
    });
    expect(answers.used).toBe(true);
    expect(stringifyJson(result.data)).toBe('{"transactions":{"items":[{"id":"a"}],"pagination":{"total":1}},"failed":null}');
    expect(answers.offer(["transactions", "items"], "[]")).toBe(false);
  });
});

describe("selectsExactly", () => {
  const stored = selectionOf("{ id amount asset { symbol decimals } }");

  it("holds only for the same fields in the same order, without alias, argument, directive or fragment", () => {
    expect(selectsExactly(firstField("{ items { id amount asset { symbol decimals } } }"), stored)).toBe(true);
    for (const other of [
      "{ items { amount id asset { symbol decimals } } }",
      "{ items { id amount asset { symbol } } }",
      "{ items { id amount asset { symbol decimals } note } }",
      "{ items { id value: amount asset { symbol decimals } } }",
      "{ items { id amount @include(if: true) asset { symbol decimals } } }",
      "{ items { id amount asset { ... on Asset { symbol decimals } } } }",
      "{ items { id amount asset { symbol decimals(x: 1) } } }",
      "{ items { id amount asset } }",
    ])
      expect(selectsExactly(firstField(other), stored), other).toBe(false);
  });
});
