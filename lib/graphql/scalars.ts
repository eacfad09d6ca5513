import { GraphQLScalarType, isScalarType, Kind, type GraphQLSchema } from "graphql";

/**
 * Instants cross GraphQL as epoch milliseconds (spec 2.1's default), so the REST adapter only
 * reformats when a client asks for ISO 8601. Accepts numbers or ISO strings as input.
 */
export const TimestampScalar = new GraphQLScalarType<Date, number>({
  name: "Timestamp",
  description: "An instant as integer milliseconds since the Unix epoch (UTC).",
  serialize(value) {
    if (value instanceof Date) return value.getTime();
    if (typeof value === "number") return value;
    if (typeof value === "string") return new Date(value).getTime();
    throw new TypeError("Timestamp cannot represent this value");
  },
  parseValue(value) {
    const date = typeof value === "number" || typeof value === "string" ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new TypeError("Timestamp expects epoch milliseconds or an ISO 8601 string");
    return date;
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT) return new Date(Number(ast.value));
    if (ast.kind === Kind.STRING) return new Date(ast.value);
    throw new TypeError("Timestamp expects epoch milliseconds or an ISO 8601 string");
  },
});

/** Free-form JSON objects (config variants, provider payloads). */
export const JSONObjectScalar = new GraphQLScalarType<Record<string, unknown>, Record<string, unknown>>({
  name: "JSONObject",
  description: "A JSON object.",
  serialize: (value) => value as Record<string, unknown>,
  parseValue: (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError("JSONObject expects an object");
    return value as Record<string, unknown>;
  },
});

/** Any JSON value: inputs a domain function validates itself (the PINT exchange body answers PINT-400-001, not 422). */
export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: "JSON",
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
});

/**
 * Gives a schema built from the supergraph, whose custom scalars take any value, our scalars'
 * variable parsing: the gateway then refuses a variable a subgraph would refuse before planning,
 * 400 BAD_USER_INPUT from an operation's first run on, as the single-fetch shortcut answers
 * (through the gateway a subgraph refused it, a 200 with an internal error). Literals and output
 * stay the supergraph's: validation and the values the gateway passes through do not change.
 */
export function parseVariablesAsSubgraphs(schema: GraphQLSchema): void {
  for (const scalar of [TimestampScalar, JSONObjectScalar, JSONScalar]) {
    const type = schema.getType(scalar.name);
    if (isScalarType(type)) type.parseValue = scalar.parseValue;
  }
}
