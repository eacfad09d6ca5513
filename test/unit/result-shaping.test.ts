import * as federation from "@apollo/federation-internals";
import resultShaping from "@apollo/gateway/dist/resultShaping.js";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { apolloComputeResponse, shapeResultsFaster } from "../../gateway/result-shaping.ts";

shapeResultsFaster();
const schema = federation.buildSchema(`
  type Query { me: User node(id: ID!): Node search: [Result!]! users: [User] }
  interface Node { id: ID! }
  type User implements Node { id: ID! name: String status: Status! friends: [User] best: User! age: Int score: Float flag: Boolean! any: JSON tags: [String!] }
  scalar JSON
  type Org implements Node { id: ID! title: String }
  union Result = User | Org
  enum Status { A B }
`);
const QUERY = `query ($s: Boolean!, $i: Boolean = true) {
  me { id __typename n: name name status friends { id status } best { id name } ...F @include(if: $i) x: __typename age score flag any tags }
  node(id: "1") { id ... on User { name } ... on Org { title } }
  search { __typename ... on User { id } ... on Org { title } }
  skipped: me @skip(if: $s) { id }
  __proto__: me { id toJSON: name }
  users { id best { id } }
}
fragment F on User { f: name friends { name } status age }`;
const operation = federation.operationFromDocument(schema, parse(QUERY), { validate: false });

const user = (id: string, extra: Record<string, unknown> = {}) => ({ __typename: "User", id, name: `n${id}`, n: `n${id}`, status: "A", f: `f${id}`, friends: [{ id: "f", status: "B", name: "nf" }, null], best: { id: "b", name: "nb" }, toJSON: "j", age: 41, score: 1.5, flag: true, any: { a: [1, "b"] }, tags: ["t"], ...extra });
const input = (me: Record<string, unknown> | null, more: Record<string, unknown> = {}) => ({
  me,
  skipped: me,
  __proto__: me,
  node: { __typename: "Org", id: "1", title: "t" },
  search: [user("s"), { __typename: "Org", title: "o" }],
  users: [user("u1"), user("u2", { best: null })],
  ...more,
});

/** Both shapings of the same input: data as JSON (key order included) and the errors as a client sees them. */
function both(data: Record<string, unknown> | null | undefined, variables: Record<string, unknown>) {
  const seen = (result: ReturnType<typeof apolloComputeResponse>) => ({ data: JSON.stringify(result.data), errors: result.errors.map((error) => error.toJSON()) });
  const introspectionHandling = (selection: federation.FieldSelection) => `introspected ${selection}`;
  // JSON.parse makes objects with Object.prototype, as a subgraph's parsed answer has
  const copy = () => (data == null ? data : JSON.parse(JSON.stringify(data)));
  const ours = resultShaping.computeResponse({ operation, variables, input: copy() as never, introspectionHandling });
  const apollo = apolloComputeResponse({ operation, variables, input: copy() as never, introspectionHandling });
  return { ours: seen(ours), apollo: seen(apollo), data: ours.data };
}

// `__proto__` in an object literal sets the prototype: the inputs carry it as an own key
function withProto(value: Record<string, unknown>): Record<string, unknown> {
  const { __proto__: proto, ...rest } = value as { __proto__: unknown };
  return Object.defineProperty(rest, "__proto__", { value: proto, enumerable: true, writable: true, configurable: true });
}

describe("the gateway's result shaping", () => {
  it("is what the gateway calls: the package's export, replaced", () => {
    expect(resultShaping.computeResponse).not.toBe(apolloComputeResponse);
  });

  it.each([
    ["every field valid", input(user("1")), { s: false }],
    ["skipped and included by variables", input(user("1")), { s: true, i: false }],
    ["an invalid enum value (an error, the field null)", input(user("1", { status: "C" })), { s: false }],
    ["a null where non-null bubbles up to the nullable parent", input(user("1", { best: null })), { s: false }],
    ["a null in a non-null list element bubbles up to the root", input(user("1"), { search: [null] }), { s: false }],
    ["an unknown __typename", input(user("1", { __typename: "Nope" })), { s: false }],
    ["a missing field reads as null", input(user("1", { name: undefined, friends: undefined })), { s: false }],
    ["an unknown __typename where non-null", input(user("1", { best: { __typename: "Nope", id: "b" } })), { s: false }],
    ["a null root field", input(null), { s: false }],
    // the leaves' checks (isValidLeafValue), nullable and non-null
    ["leaves of every kind, valid", input(user("1", { id: 7, age: -3, score: 2, any: "text", tags: [] })), { s: false }],
    ["a string where an Int is", input(user("1", { age: "41" })), { s: false }],
    ["a fraction where an Int is", input(user("1", { age: 1.5 })), { s: false }],
    ["an integer beyond 32 bits where an Int is", input(user("1", { age: 2 ** 40 })), { s: false }],
    ["a number where a String is", input(user("1", { name: 3 })), { s: false }],
    ["a string where a Float is", input(user("1", { score: "1.5" })), { s: false }],
    ["an infinite Float", input(user("1", { score: Infinity })), { s: false }],
    ["a boolean where an ID is (non-null: bubbles up)", input(user("1", { id: true })), { s: false }],
    ["a string where a non-null Boolean is", input(user("1", { flag: "yes" })), { s: false }],
    ["a null where a non-null Boolean is", input(user("1", { flag: null })), { s: false }],
    ["a fraction as an ID", input(user("1", { id: 1.5 })), { s: false }],
    ["an object where a String is", input(user("1", { name: { a: 1 } })), { s: false }],
    ["an invalid value in a list of leaves", input(user("1", { tags: ["t", 4, null] })), { s: false }],
  ])("%s: the same answer and errors as Apollo's", (_name, data, variables) => {
    const { ours, apollo } = both(withProto(data), variables);
    expect(ours).toEqual(apollo);
  });

  it("an alias `__proto__` or `toJSON` is a field like any other", () => {
    const { ours, apollo, data } = both(withProto(input(user("1"))), { s: false });
    expect(ours).toEqual(apollo);
    expect(JSON.parse(ours.data).__proto__).toEqual({ id: "1", toJSON: "j" });
    expect(Object.keys(data!)).toContain("__proto__");
  });

  it("no input is answered as it is", () => {
    expect(both(null, { s: false }).ours).toEqual(both(null, { s: false }).apollo);
    expect(both(undefined, { s: false }).ours.data).toBeUndefined();
  });

  it("answers objects that inherit nothing, as Apollo's do", () => {
    const { data } = both(withProto(input(user("1"))), { s: false });
    const me = data!.me as Record<string, unknown>;
    expect("toString" in me || "hasOwnProperty" in me).toBe(false);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(me))).toBeNull();
  });
});
