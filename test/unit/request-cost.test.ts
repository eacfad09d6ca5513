import { describe, expect, it } from "vitest";
import { requestCost } from "../../gateway/request-cost.ts";

// What a /graphql request spends of its rate-limit budget: queries once, mutations per root field.
describe("requestCost", () => {
  it("counts a query once, however many root fields or aliases it has", () => {
    expect(requestCost({ query: "{ a: health { status } b: health { status } me { id } }" })).toBe(1);
    expect(requestCost({ query: "query Q { health { status } }", operationName: "Q" })).toBe(1);
  });

  it("counts a mutation once per root field, aliases apart", () => {
    expect(requestCost({ query: "mutation { siwe_nonce { nonce } }" })).toBe(1);
    expect(requestCost({ query: `mutation { ${Array.from({ length: 40 }, (_, i) => `a${i}: siwe_nonce { nonce }`).join(" ")} }` })).toBe(40);
  });

  it("sees through fragments, counts merged fields (one response key) once and __typename not at all", () => {
    const query = `
      mutation M { a: siwe_nonce { nonce } ...More ... on Mutation { c: siwe_nonce { nonce } } a: siwe_nonce { nonce } __typename ...More }
      fragment More on Mutation { b: siwe_nonce { nonce } ...Loop }
      fragment Loop on Mutation { d: siwe_nonce { nonce } ...More }`;
    expect(requestCost({ query, operationName: "M" })).toBe(4);
  });

  it("picks the named operation of several", () => {
    const query = "query Q { health { status } } mutation M { a: siwe_nonce { nonce } b: siwe_nonce { nonce } }";
    expect(requestCost({ query, operationName: "M" })).toBe(2);
    expect(requestCost({ query, operationName: "Q" })).toBe(1);
    expect(requestCost({ query })).toBe(1); // ambiguous: the gateway refuses it without running anything
  });

  it("charges 1 for what the gateway refuses anyway: no query, a syntax error, a batch", () => {
    for (const payload of [undefined, null, "mutation", [], [{ query: "mutation { a: x b: x }" }], { query: 42 }, { query: "mutation { a: x" }]) expect(requestCost(payload)).toBe(1);
  });
});
