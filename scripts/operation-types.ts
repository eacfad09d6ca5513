import { Supergraph } from "@apollo/federation-internals";
import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  validate,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { JSONObjectScalar, JSONScalar, TimestampScalar } from "../lib/graphql/scalars.ts";

/**
 * Types each REST route's operation data from its operation text: the route tables' operations are
 * read against the public API of the committed supergraph (what the gateway validates them
 * against) and every selection becomes a TypeScript type. `defineRoute` looks the data type up by
 * operationId, so a route's `result`, `status` and `links` see exactly the fields it selects.
 * `npm run generate:operations` writes them at the end of rest-adapter/resources/resources.generated.ts;
 * test/unit/operation-types.test.ts fails when it is stale.
 */

/** What each scalar is in the JSON the adapter reads (custom scalars: lib/graphql/scalars.ts). */
const SCALAR_TYPES: Record<string, string> = {
  Int: "number",
  Float: "number",
  String: "string",
  ID: "string",
  Boolean: "boolean",
  [TimestampScalar.name]: "number",
  [JSONObjectScalar.name]: "Record<string, unknown>",
  [JSONScalar.name]: "unknown",
};

export interface TypedRoute {
  operationId: string;
  method: string;
  path: string;
  operation: string;
}

/** The schema the gateway serves: the supergraph without its @inaccessible parts. */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}

class OperationTyper {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly where: string,
  ) {}

  /** The fields a selection set picks on one object type, by response key (graphql-js CollectFields, with @include/@skip kept as "maybe"). */
  private collect(type: GraphQLObjectType, selectionSet: SelectionSetNode, fields: Map<string, { nodes: FieldNode[]; conditional: boolean }>, conditional: boolean): void {
    for (const selection of selectionSet.selections) {
      const isConditional = conditional || (selection.directives ?? []).some((d) => d.name.value === "include" || d.name.value === "skip");
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const entry = fields.get(key);
        if (entry) {
          entry.nodes.push(selection);
          entry.conditional &&= isConditional;
        } else fields.set(key, { nodes: [selection], conditional: isConditional });
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : this.fragments.get(selection.name.value);
        if (!fragment) throw new Error(`${this.where}: unknown fragment`);
        const condition = fragment.typeCondition && this.schema.getType(fragment.typeCondition.name.value);
        if (condition && condition !== type && !(isAbstractType(condition) && this.schema.isSubType(condition, type))) continue;
        this.collect(type, fragment.selectionSet, fields, isConditional);
      }
    }
  }

  private objectType(type: GraphQLObjectType, selectionSets: SelectionSetNode[], indent: string): string {
    const fields = new Map<string, { nodes: FieldNode[]; conditional: boolean }>();
    for (const selectionSet of selectionSets) this.collect(type, selectionSet, fields, false);
    const lines = [...fields].map(([key, { nodes, conditional }]) => {
      const name = nodes[0]!.name.value;
      const value = name === "__typename" ? JSON.stringify(type.name) : this.outputType(this.fieldType(type, name), nodes, `${indent}  `);
      return `${indent}  ${key}${conditional ? "?" : ""}: ${value};`;
    });
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  private fieldType(type: GraphQLObjectType, name: string): GraphQLOutputType {
    const field = type.getFields()[name];
    if (!field) throw new Error(`${this.where}: ${type.name} has no field ${name}`);
    return field.type;
  }

  private compositeType(type: GraphQLCompositeType, selectionSets: SelectionSetNode[], indent: string): string {
    if (isObjectType(type)) return this.objectType(type, selectionSets, indent);
    const variants = [...new Set(this.schema.getPossibleTypes(type).map((object) => this.objectType(object, selectionSets, indent)))];
    return variants.join(" | ");
  }

  private outputType(type: GraphQLOutputType, nodes: FieldNode[], indent: string): string {
    if (isNonNullType(type)) return this.nonNullType(type.ofType, nodes, indent);
    const inner = this.nonNullType(type, nodes, indent);
    return `${inner} | null`;
  }

  private nonNullType(type: GraphQLOutputType, nodes: FieldNode[], indent: string): string {
    if (isListType(type)) {
      const item = this.outputType(type.ofType, nodes, indent);
      const named = getNamedType(type.ofType);
      const oneType = isNonNullType(type.ofType) && (isObjectType(named) || isScalarType(named));
      return oneType ? `${item}[]` : `(${item})[]`;
    }
    const named = getNamedType(type);
    if (isScalarType(named)) {
      const scalar = SCALAR_TYPES[named.name];
      if (!scalar) throw new Error(`${this.where}: no TypeScript type for scalar ${named.name} (add it to SCALAR_TYPES)`);
      return scalar;
    }
    if (isEnumType(named)) return named.getValues().map((value) => JSON.stringify(value.name)).join(" | ");
    const selectionSets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    return this.compositeType(named as GraphQLCompositeType, selectionSets, indent);
  }

  operationData(operation: OperationDefinitionNode, indent: string): string {
    const root = this.schema.getRootType(operation.operation);
    if (!root) throw new Error(`${this.where}: the API has no ${operation.operation} type`);
    return this.objectType(root, [operation.selectionSet], indent);
  }
}

/** The data type of one operation (its only operation definition). */
export function operationDataType(schema: GraphQLSchema, source: string, where: string, indent = ""): string {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`${where}: ${errors.map((error) => error.message).join("; ")}`);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new Error(`${where}: expected one operation, found ${operations.length}`);
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return new OperationTyper(schema, fragments, where).operationData(operations[0]!, indent);
}

/** The generated module's last section: `OperationData`, each route's operation data by operationId (a route listed twice counts once). */
export function renderOperationTypes(schema: GraphQLSchema, routes: readonly TypedRoute[]): string {
  const seen = new Map<string, string>();
  const entries: string[] = [];
  for (const route of routes) {
    const previous = seen.get(route.operationId);
    if (previous !== undefined) {
      if (previous !== route.operation) throw new Error(`operationId ${route.operationId} names two different operations`);
      continue;
    }
    seen.set(route.operationId, route.operation);
    const where = `${route.method} ${route.path} (${route.operationId})`;
    entries.push(`  /** ${route.method} ${route.path} */\n  ${route.operationId}: ${operationDataType(schema, route.operation, where, "  ")};`);
  }
  return [
    "// Each route's operation data, from the route tables' operations (scripts/operation-types.ts).",
    "",
    "/** The `data` of each REST route's GraphQL operation, by operationId. */",
    "export interface OperationData {",
    ...entries,
    "}",
    "",
  ].join("\n");
}
