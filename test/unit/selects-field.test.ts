import { buildSchema, execute, parse, type GraphQLResolveInfo } from "graphql";
import { describe, expect, it } from "vitest";
import { selectsField } from "../../lib/graphql/selects-field.ts";

const schema = buildSchema("type User { id: ID, status: String, safe_creation_status: String, friend: User } type Query { me: User }");

/** What `me`'s resolver learns of the operation. */
function seen(query: string, variables?: Record<string, unknown>): boolean {
  let selected: boolean | undefined;
  const rootValue = { me: (_args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => ((selected = selectsField(info, "safe_creation_status")), {}) };
  const result = execute({ schema, document: parse(query), rootValue, variableValues: variables });
  expect(result).not.toHaveProperty("errors");
  return selected!;
}

describe("selectsField", () => {
  it("sees the field directly, under an alias, in inline and named fragments", () => {
    expect(seen("{ me { id safe_creation_status } }")).toBe(true);
    expect(seen("{ me { id safe: safe_creation_status } }")).toBe(true);
    expect(seen("{ me { id ... on User { safe_creation_status } } }")).toBe(true);
    expect(seen("{ me { ...A } } fragment A on User { id ...B } fragment B on User { safe_creation_status }")).toBe(true);
  });

  it("counts a field that @skip or @include may leave out", () => {
    expect(seen("query ($s: Boolean!) { me { id safe_creation_status @skip(if: $s) } }", { s: true })).toBe(true);
  });

  it("does not see it when absent, or only on a nested object", () => {
    expect(seen("{ me { id status } }")).toBe(false);
    expect(seen("{ me { id friend { safe_creation_status } } }")).toBe(false);
    expect(seen("{ me { ...A } } fragment A on User { id ...A }")).toBe(false);
  });

  it("answers each name of a document's field once walked, and another document's field by its own selection", () => {
    const document = parse("{ me { id ...A } } fragment A on User { status }");
    const asked: Record<string, boolean>[] = [];
    const rootValue = { me: (_args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => (asked.push({ status: selectsField(info, "status"), friend: selectsField(info, "friend") }), {}) };
    for (let run = 0; run < 2; run++) expect(execute({ schema, document, rootValue })).not.toHaveProperty("errors");
    expect(asked).toEqual([{ status: true, friend: false }, { status: true, friend: false }]);
    // the same text parsed again: other nodes, walked again, with the same answers
    expect(seen("{ me { id ...A } } fragment A on User { status }")).toBe(false);
    expect(seen("{ me { id ...A } } fragment A on User { safe_creation_status }")).toBe(true);
  });
});
