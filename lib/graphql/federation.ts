import { buildSubgraphSchema } from "@apollo/subgraph";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/resolverMap.js";
import { printSchemaWithDirectives } from "@graphql-tools/utils";
import { parse, type GraphQLSchema } from "graphql";
import { buildSchema, createResolversMap, type BuildSchemaOptions } from "type-graphql";
import { TimestampScalar } from "./scalars.ts";

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@inaccessible", "@tag", "@external", "@requires", "@provides", "@override"])';

export type ReferenceResolvers = Record<string, { __resolveReference: (reference: any, context: any) => unknown }>;

/**
 * All federation plumbing in one place: build the type-graphql schema, print it with its
 * directives under the Federation 2 `@link`, and rebuild it as an Apollo subgraph with the
 * type-graphql resolvers plus each entity's reference resolver.
 */
export async function buildFederatedSchema(options: Omit<BuildSchemaOptions, "skipCheck">, referenceResolvers: ReferenceResolvers = {}): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    ...options,
    skipCheck: true,
    validate: false,
    scalarsMap: [{ type: Date, scalar: TimestampScalar }, ...(options.scalarsMap ?? [])],
  });
  const typeDefs = parse(`${FEDERATION_LINK}\n\n${printSchemaWithDirectives(schema)}`);
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...reference } as never;
  }
  return buildSubgraphSchema({ typeDefs, resolvers });
}
