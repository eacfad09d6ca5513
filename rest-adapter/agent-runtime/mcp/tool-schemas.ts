import type { TSchema } from "@sinclair/typebox";
import { COMPONENTS } from "../../route-kit/components.ts";
import type { Route } from "../../route-kit/route.ts";

/** A JSON Schema as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/** A tool's `outputSchema`: MCP wants an object at the top. */
export type OutputSchema = JsonSchema & { type: "object" };

/** TypeBox writes `Record(String, T)` as this one pattern; JSON Schema says "any name" with additionalProperties. */
const ANY_NAME = "^(.*)$";
/** Keywords whose value maps names (not keywords) to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["const", "enum", "default", "examples"]);

/** Where a body that is not an object goes in `structuredContent`, which MCP wants an object. */
export const RESULT_PROPERTY = "result";

const components = new Map(COMPONENTS.map((component) => [component.$id as string, component]));

/**
 * Turns TypeBox schemas into self-contained JSON Schema for MCP clients: `$id`s dropped (a client
 * compiles every tool's schema in one validator, where two alike would clash), each component
 * reference (`Type.Ref("Budget")`) pointed at `#/$defs/Budget`, collected in `defs`, and a free-form
 * object (`Type.Record(Type.String(), T)`) written as `additionalProperties: T`.
 */
function schemaWriter() {
  const defs: Record<string, JsonSchema> = {};
  const define = (id: string): string => {
    if (!(id in defs)) {
      const component = components.get(id);
      if (!component) throw new Error(`no component named ${id}`);
      defs[id] = {}; // taken before converting, for a component that refers to itself
      defs[id] = write(component) as JsonSchema;
    }
    return `#/$defs/${id}`;
  };
  const convert = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(convert);
    if (typeof schema !== "object" || schema === null) return schema;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$id") continue;
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) out.$ref = define(value);
      else if (key === "patternProperties" && Object.keys(value as object).join() === ANY_NAME && !("additionalProperties" in schema)) out.additionalProperties = convert((value as JsonSchema)[ANY_NAME]);
      else if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as object).map(([name, property]) => [name, convert(property)]));
      else out[key] = DATA.has(key) ? value : convert(value);
    }
    return out;
  };
  // plain JSON first: TypeBox's symbols and anything JSON cannot say left out
  const write = (schema: TSchema | JsonSchema): unknown => convert(JSON.parse(JSON.stringify(schema)));
  /** the schema, a component reference at its top replaced by the component itself */
  const inline = (schema: TSchema | JsonSchema): JsonSchema => {
    const { $ref, ...rest } = JSON.parse(JSON.stringify(schema)) as JsonSchema;
    const component = typeof $ref === "string" ? components.get($ref) : undefined;
    return component ? { ...(write(component) as JsonSchema), ...(write(rest) as JsonSchema) } : (write(schema) as JsonSchema);
  };
  const complete = <T extends JsonSchema>(schema: T): T => (Object.keys(defs).length > 0 ? { ...schema, $defs: { ...defs } } : schema);
  /** whether every value the schema admits is an object */
  const isObject = (schema: JsonSchema): boolean => {
    if (typeof schema.$ref === "string") return isObject(defs[schema.$ref.replace("#/$defs/", "")] ?? {});
    if (schema.type === "object") return true;
    const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    return Array.isArray(branches) && branches.length > 0 && branches.every(isObject);
  };
  return { write, inline, complete, isObject };
}

/** An input schema (properties from the route's path, query and body) as MCP clients read it; see schemaWriter. */
export function toolInputSchema<T extends JsonSchema & { type: "object" }>(schema: T): T {
  const writer = schemaWriter();
  return writer.complete(writer.write(schema) as T);
}

/**
 * A tool's `outputSchema` from its route's success responses (`responses`, the schemas
 * /openapi.json documents), and how a success body becomes the `structuredContent` it describes:
 * the body itself when every success answer is an object (a resource, a `{ items, _links }` page);
 * otherwise `{ result: body }` (a list, a value, `null` for an answer without a body such as a
 * 204), so the two always agree.
 */
export function toolOutput(route: Pick<Route, "responses">): { schema: OutputSchema; wrapped: boolean } {
  const writer = schemaWriter();
  const answers = Object.values(route.responses).map((doc) => (doc.schema ? writer.inline(doc.schema) : { type: "null" }));
  const wrapped = !answers.every(writer.isObject);
  const one = (schemas: JsonSchema[]): JsonSchema => (schemas.length === 1 ? schemas[0]! : { anyOf: schemas });
  const schema: OutputSchema = wrapped
    ? { type: "object", properties: { [RESULT_PROPERTY]: one(answers) }, required: [RESULT_PROPERTY], additionalProperties: false }
    : { ...one(answers), type: "object" };
  return { schema: writer.complete(schema), wrapped };
}
