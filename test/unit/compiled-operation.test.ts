import { execute, GraphQLError, parse, type DocumentNode, type ExecutionResult, type GraphQLResolveInfo } from "graphql";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { DateTimeResolver } from "graphql-scalars";
import * as jit from "graphql-jit";
import { describe, expect, it } from "vitest";
import { CompiledOperations } from "../../lib/graphql/compiled-operation.ts";
import { TimestampScalar } from "../../lib/graphql/scalars.ts";
import { selectsField } from "../../lib/graphql/selects-field.ts";
import { appError } from "../../lib/errors/app-error.ts";

const typeDefs = /* GraphQL */ `
  scalar Timestamp
  scalar DateTime
  interface Movement { id: ID! amount: String! }
  type Deposit implements Movement { id: ID! amount: String! asset: String! }
  type Card implements Movement { id: ID! amount: String! merchant: String }
  union Anything = Deposit | Card
  type Page { items: [Movement!]! total: Int! selectsTotal: Boolean! at: Timestamp! created: DateTime! }
  type Query {
    page(limit: Int!, since: Timestamp): Page!
    anything: [Anything!]!
    failing: String
    failingRequired: Page
    twoFailures: [String]
    thrownGraphQLError: String
    missingRequired: Page
    counter: Int!
  }
  type Mutation { bump: Int! }
`;

let counter = 0;
const movements = [
  { id: "dep_1", amount: "1.5", asset: "ETH" },
  { id: "crd_1", amount: "-20.00", merchant: null },
];
const schema = makeExecutableSchema({
  typeDefs,
  resolvers: {
    Timestamp: TimestampScalar,
    DateTime: DateTimeResolver,
    Movement: { __resolveType: (value: { asset?: string }) => (value.asset ? "Deposit" : "Card") },
    Deposit: { __isTypeOf: (value: { asset?: string }) => Boolean(value.asset) },
    Card: { __isTypeOf: (value: { asset?: string }) => !value.asset },
    Query: {
      page: async (_: unknown, args: { limit: number; since?: Date }, _context: unknown, info: GraphQLResolveInfo) => ({
        items: movements.slice(0, args.limit),
        total: movements.length,
        selectsTotal: selectsField(info, "total"),
        at: args.since ?? new Date(1_700_000_000_000),
        created: new Date(Date.UTC(2026, 0, 2)),
      }),
      anything: () => movements,
      failing: () => Promise.reject(appError("TXN-404-001", "No transaction txn_1.")),
      failingRequired: () => ({
        items: () => {
          throw new Error("database gone");
        },
      }),
      twoFailures: () => [Promise.reject(new Error("one")), Promise.reject(new Error("two"))],
      thrownGraphQLError: () => {
        throw new GraphQLError("already located", { path: ["elsewhere"] });
      },
      missingRequired: () => ({ items: [], total: null }),
      counter: () => ++counter,
    },
    Mutation: { bump: () => ++counter },
  },
});

/** An answer as a client and our error masking see it: the JSON, and what each error wraps. */
function shown(result: ExecutionResult) {
  return {
    json: JSON.stringify(result),
    causes: result.errors?.map((error) => [error.constructor.name === "GraphQLError", error.originalError?.message, error.originalError?.constructor.name]),
  };
}

async function bothWays(source: string, variables?: Record<string, unknown>, operationName?: string) {
  const document = parse(source);
  const operations = new CompiledOperations(schema, { compileAfter: 0 });
  const compiled = await operations.execute(document, operationName, variables, {});
  const interpreted = await execute({ schema, document, operationName, variableValues: variables, contextValue: {} });
  return { compiled: shown(compiled), interpreted: shown(interpreted), wasCompiled: compiledCount(operations) === 1 };
}

/** How many operations `operations` holds compiled. */
const compiledCount = (operations: CompiledOperations) => (operations as unknown as { compiled: Map<unknown, unknown> }).compiled.size;

describe("CompiledOperations", () => {
  it("runs an operation on graphql-js until it has run compileAfter times, then compiles it once", async () => {
    const operations = new CompiledOperations(schema, { compileAfter: 2 });
    const document = parse("{ counter }");
    await operations.execute(document, undefined, undefined, {});
    await operations.execute(document, undefined, undefined, {});
    expect(compiledCount(operations)).toBe(0);
    for (let run = 0; run < 3; run++) await operations.execute(document, undefined, undefined, {});
    expect(compiledCount(operations)).toBe(1);
  });

  it("keeps each operation of a document apart", async () => {
    const operations = new CompiledOperations(schema, { compileAfter: 0 });
    const document = parse("query A { counter } query B { page(limit: 1) { total } }");
    expect(await operations.execute(document, "B", undefined, {})).toEqual({ data: { page: { total: 2 } } });
    expect((await operations.execute(document, "A", undefined, {})).data).toHaveProperty("counter");
    expect(compiledCount(operations)).toBe(2);
  });

  it("keeps at most maxCompiled operations compiled, the oldest dropped", async () => {
    const operations = new CompiledOperations(schema, { compileAfter: 0, maxCompiled: 1 });
    for (const source of ["{ counter }", "{ page(limit: 1) { total } }"]) await operations.execute(parse(source), undefined, undefined, {});
    expect(compiledCount(operations)).toBe(1);
  });

  it("never compiles a mutation", async () => {
    const operations = new CompiledOperations(schema, { compileAfter: 0 });
    const document = parse("mutation { bump }");
    for (let run = 0; run < 3; run++) await operations.execute(document, undefined, undefined, {});
    expect(compiledCount(operations)).toBe(0);
  });

  it("answers what graphql-js answers: scalars in and out, abstract types, fragments, aliases, @include/@skip, info", async () => {
    const query = `
      query Feed($limit: Int!, $since: Timestamp, $withTotal: Boolean!, $skipCards: Boolean = true) {
        page(limit: $limit, since: $since) {
          count: total @include(if: $withTotal)
          selectsTotal at created
          items { __typename id ...Moves ... on Card @skip(if: $skipCards) { merchant } }
        }
        anything { ... on Deposit { asset } ... on Card { id } }
      }
      fragment Moves on Movement { amount ... on Deposit { asset } }`;
    for (const variables of [{ limit: 2, since: "2026-01-01T00:00:00Z", withTotal: true }, { limit: 1, withTotal: false, skipCards: false }]) {
      const { compiled, interpreted, wasCompiled } = await bothWays(query, variables);
      expect(compiled).toEqual(interpreted);
      expect(wasCompiled).toBe(true);
    }
    expect((await bothWays("{ page(limit: 1) { selectsTotal } }")).compiled.json).toContain('"selectsTotal":false');
  });

  it("answers a resolver's catalogue error and a failure bubbling up a non-null field as graphql-js does", async () => {
    for (const query of ["{ failing }", "{ failingRequired { total items { id } } }"]) {
      const { compiled, interpreted, wasCompiled } = await bothWays(query);
      expect(compiled).toEqual(interpreted);
      expect(wasCompiled).toBe(true);
    }
    expect((await bothWays("{ failing }")).compiled.json).toContain('"error_code":"TXN-404-001"');
  });

  it("answers from graphql-js where graphql-jit words, orders or wraps errors otherwise", async () => {
    const cases: [string, Record<string, unknown>?][] = [
      ["query ($limit: Int!) { page(limit: $limit) { total } }", { limit: "many" }],
      ["query ($since: Timestamp) { page(limit: 1, since: $since) { total } }", { since: "not a time" }],
      ["{ twoFailures }"],
      ["{ failing twoFailures failingRequired { items { id } } }"],
      ["{ thrownGraphQLError }"],
      ["{ missingRequired { total total } }"],
    ];
    for (const [query, variables] of cases) {
      const { compiled, interpreted } = await bothWays(query, variables);
      expect(compiled, query).toEqual(interpreted);
    }
  });
});

describe("graphql-jit on its own, for the record of why graphql-js answers those", () => {
  const raw = (source: string, variables?: Record<string, unknown>) => {
    const compiled = jit.compileQuery(schema, parse(source) as DocumentNode);
    if (!jit.isCompiledQuery(compiled)) throw new Error("not compiled");
    return compiled.query(undefined, {}, variables ?? {}) as Promise<ExecutionResult>;
  };
  it("names a field selected twice otherwise in a non-null error", async () => {
    const { errors } = await raw("{ missingRequired { total total } }");
    expect(errors?.[0]?.message).not.toBe("Cannot return null for non-nullable field Page.total.");
  });
  it("words a refused variable otherwise", async () => {
    const document = parse("query ($limit: Int!) { page(limit: $limit) { total } }");
    const interpreted = await execute({ schema, document, variableValues: { limit: "many" } });
    const { errors } = await raw("query ($limit: Int!) { page(limit: $limit) { total } }", { limit: "many" });
    expect(errors?.map((error) => error.message)).not.toEqual(interpreted.errors?.map((error) => error.message));
  });
});
