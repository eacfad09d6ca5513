import { createRequire } from "node:module";
import { build } from "esbuild";
import { expect, it } from "vitest";
// @ts-expect-error: a plain JavaScript module (it runs before anything is compiled)
import { graphqlSingleCopy } from "../../scripts/build.mjs";

// The bundle's graphql-js checks `instanceOf` with plain `instanceof` whatever NODE_ENV says (one
// copy of graphql in the bundle): its development check compares class names and throws on a
// stranger of the same name, at a cost on every field.
it("bundles graphql's instanceOf without the development-mode name check", async () => {
  const entry = createRequire(import.meta.url).resolve("graphql/jsutils/instanceOf.js");
  const bundle = async (plugins: unknown[]) => {
    const out = await build({ entryPoints: [entry], bundle: true, write: false, format: "cjs", platform: "node", plugins: plugins as never, logLevel: "silent" });
    const module = { exports: {} as { instanceOf: (value: unknown, constructor: unknown) => boolean } };
    new Function("module", "exports", "require", out.outputFiles[0]!.text)(module, module.exports, createRequire(entry));
    return module.exports.instanceOf;
  };
  class GraphQLObjectType {
    get [Symbol.toStringTag]() {
      return "GraphQLObjectType";
    }
  }
  const stranger = { [Symbol.toStringTag]: "GraphQLObjectType" };
  const previous = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  try {
    await expect((async () => (await bundle([]))(stranger, GraphQLObjectType))()).rejects.toThrow(/from another module or realm/);
    const instanceOf = await bundle([graphqlSingleCopy]);
    expect(instanceOf(stranger, GraphQLObjectType)).toBe(false);
    expect(instanceOf(new GraphQLObjectType(), GraphQLObjectType)).toBe(true);
  } finally {
    if (previous !== undefined) process.env.NODE_ENV = previous;
  }
});
