import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLAbstractType,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from "graphql";
import type { SchemaOptions } from "@sinclair/typebox";
import { JSONObjectScalar, JSONScalar, TimestampScalar } from "../lib/graphql/scalars.ts";
import type { FieldOverlay, RestResource, TypeOverlay } from "../rest-adapter/route-kit/resource-overlay.ts";
import * as SHARED_SCHEMAS from "../rest-adapter/route-kit/schemas.ts";

/**
 * Writes each REST resource's shapes from the GraphQL schema, as SOFA derives REST from GraphQL
 * types: the selection (every field without arguments, nested types too), the response component
 * (each selected field required, nullable ones a union with null, `_links` added) and the request
 * bodies (from GraphQL input types: non-null fields required, nullable ones optional and nullable).
 * The overlays of rest-adapter/resources/ add what REST says besides (resource-overlay.ts).
 */

/** A module of rest-adapter/resources/: its file name without `.ts`, and its exports (`resource` among them). */
export interface ResourceModule {
  name: string;
  exports: Record<string, unknown>;
}

/** A union member's discriminating field and its value there. */
type Discriminant = { name: string; value: string };

type Scalars = Record<string, (options: SchemaOptions | undefined, where: string) => string>;

/** TypeBox of each scalar; Timestamp is epoch milliseconds (X-Timestamp-Format converts answers, rest-adapter/route-kit/timestamps.ts). */
const SCALARS: Scalars = {
  ID: (options) => call("Type.String", [], options),
  String: (options) => call("Type.String", [], options),
  Int: (options) => call("Type.Integer", [], options),
  Float: (options) => call("Type.Number", [], options),
  Boolean: (options) => call("Type.Boolean", [], options),
  [JSONObjectScalar.name]: (options) => call("Type.Record", ["Type.String()", "Type.Unknown()"], options),
  [JSONScalar.name]: (options) => call("Type.Unknown", [], options),
};
const OUTPUT_SCALARS: Scalars = {
  ...SCALARS,
  // a description where REST says more of the instant than EpochMs does; anything else would break EpochMs's shape
  [TimestampScalar.name]: (options, where) => {
    if (!options) return "EpochMs";
    const { description, ...others } = options;
    if (description === undefined || !isEmpty(others)) throw new Error(`${where}: a Timestamp answers as EpochMs, which takes a description only`);
    return call("Type.Integer", [], { description });
  },
};
const INPUT_SCALARS: Scalars = { ...SCALARS, [TimestampScalar.name]: (options) => call("Type.Integer", [], options) };

/** A value as TypeScript source: keys bare where they can be. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(item)}`);
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  if (value === undefined || typeof value === "function" || typeof value === "symbol") throw new Error(`cannot write ${String(value)} into the generated file`);
  return JSON.stringify(value);
}

function isEmpty(options: SchemaOptions | undefined): boolean {
  return options === undefined || Object.keys(options).length === 0;
}

function call(fn: string, args: string[], options?: SchemaOptions): string {
  return `${fn}(${[...args, ...(isEmpty(options) ? [] : [literal(options)])].join(", ")})`;
}

function enumSchema(type: GraphQLEnumType | readonly string[], options: SchemaOptions | undefined, withNull = false): string {
  const names = "getValues" in type ? type.getValues().map((value) => value.name) : type;
  const members = names.map((name) => `Type.Literal(${JSON.stringify(name)})`);
  if (members.length === 1 && !withNull) return `${members[0]!.slice(0, -1)}${isEmpty(options) ? "" : `, ${literal(options)}`})`;
  return call("Type.Union", [`[${[...members, ...(withNull ? ["Type.Null()"] : [])].join(", ")}]`], options);
}

function constantName(typeName: string): string {
  return typeName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

class ResourceRenderer {
  /** overlay types the resource's types reached, to refuse the others */
  private readonly reached = new Set<string>();
  /** exports of the resource's module the generated file imports (replacement schemas) */
  readonly imports = new Set<string>();
  /** what the generated file imports from rest-adapter/route-kit/schemas.ts: Links, EpochMs, and shared shapes an overlay replaces a field with */
  readonly shared = new Set<string>(["Links"]);

  constructor(
    private readonly module: ResourceModule,
    readonly resource: RestResource,
    /** every resource's renderer by its GraphQL type, for the fields answering another resource's component (`ref`) */
    private readonly resources: ReadonlyMap<string, ResourceRenderer>,
    private readonly schema: GraphQLSchema,
  ) {}

  private overlayOf(type: GraphQLNamedType, fields: Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>): TypeOverlay {
    const overlay = this.resource.types[type.name] ?? {};
    this.reached.add(type.name);
    if (overlay.discriminator && !isAbstractType(type)) throw new Error(`${this.module.name}: ${type.name} is no union or interface to discriminate`);
    for (const name of [...Object.keys(overlay.fields ?? {}), ...(overlay.omit ?? []), ...(overlay.order ?? [])]) {
      const field = fields[name];
      if (!field) throw new Error(`${this.module.name}: ${type.name} has no field ${name}`);
      if ("args" in field && field.args.length > 0) throw new Error(`${this.module.name}: ${type.name}.${name} takes arguments, which REST never selects`);
    }
    for (const name of overlay.omit ?? []) if (overlay.fields?.[name]) throw new Error(`${this.module.name}: ${type.name}.${name} is both omitted and overlaid`);
    for (const name of overlay.order ?? []) if (overlay.omit?.includes(name)) throw new Error(`${this.module.name}: ${type.name}.${name} is both omitted and ordered`);
    return overlay;
  }

  /** The fields REST carries: those without arguments (another route answers those), less `omit`. */
  private outputFields(type: GraphQLObjectType) {
    const { fields: overlays = {}, omit = [], order = [], ...options } = this.overlayOf(type, type.getFields());
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const fields = Object.values(type.getFields())
      .filter((field) => field.args.length === 0 && !omit.includes(field.name))
      .sort((a, b) => rank(a.name) - rank(b.name));
    return { options, overlays, fields };
  }

  /** The name of `schema` among rest-adapter/route-kit/schemas.ts's exports (REST's shared shapes), else the module's; the generated file imports it. */
  private replacement(schema: unknown, where: string): string {
    const sharedName = Object.entries(SHARED_SCHEMAS).find(([, value]) => value === schema)?.[0];
    if (sharedName) {
      this.shared.add(sharedName);
      return sharedName;
    }
    const name = Object.entries(this.module.exports).find(([, value]) => value === schema)?.[0];
    if (!name) throw new Error(`${where}: export the schema that replaces it from rest-adapter/resources/${this.module.name}.ts`);
    this.imports.add(name);
    return name;
  }

  /** The selection of the fields every answer carries (`expanded`: of those only asked for, each under `@include(if: $<field>)`). */
  selection(type: GraphQLObjectType, expanded = false): string {
    const { fields, overlays } = this.outputFields(type);
    return fields
      .filter((field) => (overlays[field.name]?.expand === true) === expanded)
      .map((field) => {
        const named = getNamedType(field.type);
        const name = expanded ? `${field.name} @include(if: $${field.name})` : field.name;
        if (isAbstractType(named)) return `${name} { ${this.members(named).map((member) => `... on ${member.name} { ${this.selection(member)} }`).join(" ")} }`;
        if (!isObjectType(named)) return name;
        return `${name} { ${overlays[field.name]?.ref ? this.referenced(named, `${type.name}.${field.name}`).selection(named) : this.selection(named)} }`;
      })
      .join(" ");
  }

  /** The object types a union or an interface answers: a union's members, in its order, or an interface's implementations. */
  private members(type: GraphQLAbstractType): readonly GraphQLObjectType[] {
    return this.schema.getPossibleTypes(type);
  }

  /** The renderer of the resource whose component a `ref` field answers. */
  private referenced(type: GraphQLNamedType, where: string): ResourceRenderer {
    const renderer = this.resources.get(type.name);
    if (!renderer) throw new Error(`${where}: ref, but no resource of rest-adapter/resources/ answers ${type.name}`);
    if (renderer.resource.component === false) throw new Error(`${where}: ref, but ${type.name} is written inline, not a component`);
    return renderer;
  }

  private object(properties: [string, string][], options: SchemaOptions | undefined, indent: string): string {
    const body = `{\n${properties.map(([name, value]) => `${indent}  ${name}: ${value},`).join("\n")}\n${indent}}`;
    return call("Type.Object", [body], options);
  }

  /** The resource's type: the component, with its `$id` and `_links`, or the shape routes write inline. */
  component(type: GraphQLObjectType): string {
    const { options, properties } = this.outputProperties(type, "");
    if (this.resource.component === false) return this.object(properties, options, "");
    const links: [string, string][] = this.resource.links === false ? [] : [["_links", "Type.Optional(Links)"]];
    return this.object([...properties, ...links], { $id: type.name, ...options }, "");
  }

  private outputProperties(type: GraphQLObjectType, indent: string, discriminant?: Discriminant) {
    const { options, overlays, fields } = this.outputFields(type);
    if (discriminant && overlays[discriminant.name]) throw new Error(`${type.name}.${discriminant.name}: the discriminator answers its literal, which takes no overlay`);
    return {
      options,
      properties: fields.map((field): [string, string] => {
        if (field.name === discriminant?.name) return [field.name, call("Type.Literal", [JSON.stringify(discriminant.value)])];
        const overlay = overlays[field.name] ?? {};
        const value = this.outputField(`${type.name}.${field.name}`, field, overlay, indent);
        return [field.name, overlay.expand ? `Type.Optional(${value})` : value];
      }),
    };
  }

  /** A nested object: its type's options, then the field's. */
  private outputObject(type: GraphQLObjectType, fieldOptions: SchemaOptions | undefined, indent: string, discriminant?: Discriminant): string {
    const { options, properties } = this.outputProperties(type, indent, discriminant);
    return this.object(properties, { ...options, ...fieldOptions }, indent);
  }

  /**
   * A union or an interface: one of its object types, each titled by its GraphQL name. With a
   * `discriminator` in the overlay, each answers its value of that field as a literal, and the union
   * carries OpenAPI's discriminator (its propertyName only: the members are inline, and a mapping
   * names components).
   */
  private outputAbstract(where: string, type: GraphQLAbstractType, fieldOptions: SchemaOptions | undefined, indent: string): string {
    const { fields, omit, order, discriminator, ...options } = this.overlayOf(type, {});
    if (fields || omit || order) throw new Error(`${where}: ${type.name} is abstract; overlay its object types' fields instead`);
    const members = this.members(type);
    if (discriminator) {
      const named = Object.values(discriminator.mapping);
      for (const member of members) if (!named.includes(member.name)) throw new Error(`${where}: the discriminator of ${type.name} maps no value to ${member.name}`);
      for (const name of named) if (!members.some((member) => member.name === name)) throw new Error(`${where}: the discriminator of ${type.name} maps a value to ${name}, which it does not answer`);
    }
    const variants = members.map((member) => {
      const value = discriminator && Object.entries(discriminator.mapping).find(([, name]) => name === member.name)![0];
      const field = discriminator && member.getFields()[discriminator.propertyName];
      if (discriminator && (!field || !isNonNullType(field.type) || !isLeafType(field.type.ofType))) throw new Error(`${where}: ${member.name} has no non-null ${discriminator.propertyName} to discriminate by`);
      const object = this.outputObject(member, { title: member.name }, `${indent}    `, value === undefined ? undefined : { name: discriminator!.propertyName, value });
      return `${indent}    ${object},`;
    });
    return call("Type.Union", [`[\n${variants.join("\n")}\n${indent}  ]`], { ...(discriminator && { discriminator: { propertyName: discriminator.propertyName } }), ...options, ...fieldOptions });
  }

  /** Whether a field takes its GraphQL description: not when the overlay gives one, to the field or to its object type. */
  private describable(type: GraphQLNamedType, overlay: FieldOverlay): boolean {
    return overlay.schema === undefined && overlay.description === undefined && overlay.orNull?.description === undefined && this.resource.types[type.name]?.description === undefined;
  }

  private outputField(where: string, field: { type: GraphQLOutputType; description?: string | null }, overlay: FieldOverlay, indent: string): string {
    const { item, orNull, schema, acceptsNull, ref, expand: _expand, values, ...options } = overlay;
    if (acceptsNull !== undefined) throw new Error(`${where}: acceptsNull is for input fields`);
    if (ref && schema) throw new Error(`${where}: ref or schema, not both`);
    if (ref && isAbstractType(getNamedType(field.type))) throw new Error(`${where}: ref, but ${getNamedType(field.type).name} is abstract`);
    const nullable = !isNonNullType(field.type);
    const type = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (values && (schema || !isScalarType(type) || type.name !== "String")) throw new Error(`${where}: values are for a String field REST does not replace`);
    // an instant's description is EpochMs's, which says how REST writes it, and a replaced shape carries its own; a nullable
    // field's union with null is GraphQL's either way, and takes its description
    const describable = nullable ? this.describable(getNamedType(type), { ...overlay, schema: undefined }) : this.describable(getNamedType(type), overlay) && getNamedType(type).name !== TimestampScalar.name;
    const inherited = describable && field.description ? { description: field.description } : undefined;
    const valueOptions = nullable ? options : { ...inherited, ...options };
    const nullOptions = nullable ? { ...inherited, ...orNull } : orNull;
    if (!nullable && !isEmpty(orNull)) throw new Error(`${where}: orNull, but the field is never null`);
    if (schema && (!isEmpty(options) || item)) throw new Error(`${where}: a replaced field takes its options in its schema`);
    const members = values ?? (isEnumType(type) ? type : undefined);
    if (nullable && !schema && members) {
      // one flat union, as nullableLiteralUnion writes it
      if (!isEmpty(options)) throw new Error(`${where}: a nullable enum takes its options in orNull`);
      return enumSchema(members, nullOptions, true);
    }
    if (values) return enumSchema(values, valueOptions);
    const value = schema ? this.replacement(schema, where) : this.outputValue(where, type, valueOptions, item, indent, ref);
    return nullable ? call("Type.Union", [`[${value}, Type.Null()]`], nullOptions) : value;
  }

  private outputValue(where: string, type: GraphQLOutputType, options: SchemaOptions | undefined, item: SchemaOptions | undefined, indent: string, ref = false): string {
    if (isListType(type)) {
      const element = type.ofType as GraphQLOutputType;
      const items = isNonNullType(element) ? this.outputValue(where, element.ofType, item, undefined, indent, ref) : call("Type.Union", [`[${this.outputValue(where, element, item, undefined, indent, ref)}, Type.Null()]`]);
      return call("Type.Array", [items], options);
    }
    if (item) throw new Error(`${where}: item, but the field is not a list`);
    if (ref) return call("Type.Ref", [JSON.stringify(this.referenced(getNamedType(type), where).resource.type)], options);
    if (isScalarType(type)) return this.scalar(OUTPUT_SCALARS, type.name, options, where);
    if (isEnumType(type)) return enumSchema(type, options);
    if (isObjectType(type)) return this.outputObject(type, options, `${indent}  `);
    if (isAbstractType(type)) return this.outputAbstract(where, type, options, indent);
    throw new Error(`${where}: no REST schema for ${String(type)}`);
  }

  private scalar(scalars: Scalars, name: string, options: SchemaOptions | undefined, where: string): string {
    const render = scalars[name];
    if (!render) throw new Error(`${where}: no TypeBox schema for scalar ${name} (add it to scripts/rest-schemas.ts)`);
    const schema = render(isEmpty(options) ? undefined : options, where);
    if (schema === "EpochMs") this.shared.add(schema);
    return schema;
  }

  body(type: GraphQLInputObjectType, mirror: GraphQLObjectType): string {
    return this.inputObject(type, mirror, undefined, "");
  }

  private inputObject(type: GraphQLInputObjectType, mirror: GraphQLObjectType | undefined, extra: SchemaOptions | undefined, indent: string): string {
    const { fields: fieldOverlays = {}, omit = [], order, ...options } = this.overlayOf(type, type.getFields());
    if (order) throw new Error(`${type.name}: order is for answers; a body's fields are named, never ordered`);
    const mirrorFields = mirror?.getFields() ?? {};
    const properties = Object.values(type.getFields())
      .filter((field) => !omit.includes(field.name))
      .map((field): [string, string] => [field.name, this.inputField(`${type.name}.${field.name}`, field, mirrorFields[field.name]?.type, fieldOverlays[field.name] ?? {}, indent)]);
    return this.object(properties, { ...options, ...extra }, indent);
  }

  private inputField(where: string, field: { type: GraphQLInputType; description?: string | null }, mirror: GraphQLOutputType | undefined, overlay: FieldOverlay, indent: string): string {
    const { item, orNull, schema, acceptsNull, ref, expand, values, ...options } = overlay;
    if (ref || expand) throw new Error(`${where}: ref and expand are for output fields`);
    const required = isNonNullType(field.type);
    const type = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (values && (schema || !isScalarType(type) || type.name !== "String")) throw new Error(`${where}: values are for a String field REST does not replace`);
    const mirrorType = mirror && isNonNullType(mirror) ? mirror.ofType : mirror;
    // an enum's values say what GraphQL's description of a String input spells out
    const listsValues = getNamedType(type).name === "String" && mirror !== undefined && isEnumType(getNamedType(mirror));
    const inherited = !listsValues && this.describable(getNamedType(type), overlay) && field.description ? { description: field.description } : undefined;
    if (schema && (!isEmpty(options) || item)) throw new Error(`${where}: a replaced field takes its options in its schema`);
    if (required && (acceptsNull !== undefined || !isEmpty(orNull))) throw new Error(`${where}: acceptsNull or orNull, but the field is required`);
    if (acceptsNull === false && !isEmpty(orNull)) throw new Error(`${where}: orNull, but REST refuses null here`);
    const outermost = !required && acceptsNull !== false;
    const mirrorEnum = listsValues && !isListType(mirrorType) ? getNamedType(mirror) : undefined;
    const members = values ?? (isEnumType(type) ? type : isEnumType(mirrorEnum) ? mirrorEnum : undefined);
    if (outermost && !schema && members) {
      // one flat union, as answers write a nullable enum
      if (!isEmpty(options)) throw new Error(`${where}: a nullable enum takes its options in orNull`);
      return `Type.Optional(${enumSchema(members, { ...inherited, ...orNull }, true)})`;
    }
    const valueOptions = outermost ? options : { ...inherited, ...options };
    const value = schema ? this.replacement(schema, where) : values ? enumSchema(values, valueOptions) : this.inputValue(where, type, mirrorType, valueOptions, item, indent);
    if (required) return value;
    if (acceptsNull === false) return `Type.Optional(${value})`;
    return `Type.Optional(${call("Type.Union", [`[${value}, Type.Null()]`], { ...inherited, ...orNull })})`;
  }

  private inputValue(where: string, type: GraphQLInputType, mirror: GraphQLOutputType | undefined, options: SchemaOptions | undefined, item: SchemaOptions | undefined, indent: string): string {
    if (isListType(type)) {
      const element = type.ofType as GraphQLInputType;
      const mirrorElement = mirror && isListType(mirror) ? (mirror.ofType as GraphQLOutputType) : undefined;
      const mirrorItem = mirrorElement && isNonNullType(mirrorElement) ? mirrorElement.ofType : mirrorElement;
      const items = isNonNullType(element)
        ? this.inputValue(where, element.ofType, mirrorItem, item, undefined, indent)
        : call("Type.Union", [`[${this.inputValue(where, element, mirrorItem, item, undefined, indent)}, Type.Null()]`]);
      return call("Type.Array", [items], options);
    }
    if (item) throw new Error(`${where}: item, but the field is not a list`);
    const mirrorNamed = mirror && getNamedType(mirror);
    if (isScalarType(type) && type.name === "String" && mirrorNamed && isEnumType(mirrorNamed) && !isListType(mirror)) return enumSchema(mirrorNamed, options);
    if (isScalarType(type)) return this.scalar(INPUT_SCALARS, type.name, options, where);
    if (isEnumType(type)) return enumSchema(type, options);
    if (isInputObjectType(type)) return this.inputObject(type, mirrorNamed && isObjectType(mirrorNamed) ? mirrorNamed : undefined, options, `${indent}  `);
    throw new Error(`${where}: no REST schema for ${String(type)}`);
  }

  /** Every overlay was used: a type named in `types` that no rendered type reached is a mistake. */
  checkReached(): void {
    for (const name of Object.keys(this.resource.types)) if (!this.reached.has(name)) throw new Error(`${this.module.name}: ${name} is overlaid but not part of ${this.resource.type} or its inputs`);
  }
}

function objectType(schema: GraphQLSchema, name: string, where: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${where}: ${name} is not an object type of the API`);
  return type;
}

/** The generated module's first part: each resource's selection, response component and request bodies (the operations' data follows). */
export function renderRestSchemas(schema: GraphQLSchema, modules: readonly ResourceModule[]): string {
  const sections: string[] = [];
  const imports: string[] = [];
  const shared = new Set<string>();
  const renderers = new Map<string, ResourceRenderer>();
  const components: string[] = [];
  const routeLists: string[] = [];
  const rendered = modules.map((module) => {
    const resource = module.exports.resource as RestResource | undefined;
    if (!resource) throw new Error(`rest-adapter/resources/${module.name}.ts exports no resource`);
    const renderer = new ResourceRenderer(module, resource, renderers, schema);
    renderers.set(resource.type, renderer);
    return { module, resource, renderer };
  });
  for (const { module, resource, renderer } of rendered) {
    const source = `rest-adapter/resources/${module.name}.ts`;
    const type = objectType(schema, resource.type, source);
    const constant = constantName(type.name);
    const expansions = renderer.selection(type, true);
    sections.push(
      `/** ${type.name}'s GraphQL selection: its fields without arguments, nested types' too, less the overlay's \`omit\` and \`expand\` (${source}). */`,
      `export const ${constant}_FIELDS = ${JSON.stringify(renderer.selection(type))};`,
      "",
      ...(expansions
        ? [`/** The fields of ${type.name} answered only when asked for, each under \`@include(if: $<field>)\`: an operation selecting them declares those Boolean variables. */`, `export const ${constant}_EXPANSIONS = ${JSON.stringify(expansions)};`, ""]
        : []),
      resource.component === false
        ? `/** ${type.name} as REST answers it within the routes that write it inline: the GraphQL type with its overlay (${source}). */`
        : `/** ${type.name} as REST answers it (the component \`${type.name}\`): the GraphQL type with its overlay (${source})${resource.links === false ? "" : " and \`_links\`"}. */`,
      `export const ${type.name} = ${renderer.component(type)};`,
      "",
    );
    if (resource.component !== false) components.push(type.name);
    for (const [input, mirror] of Object.entries(resource.inputs ?? {})) {
      const inputType = schema.getType(input);
      if (!isInputObjectType(inputType)) throw new Error(`${source}: ${input} is not an input type of the API`);
      sections.push(`/** A request body: the GraphQL input ${input}, its String fields taking the enums of ${mirror}'s. */`, `export const ${input} = ${renderer.body(inputType, objectType(schema, mirror, source))};`, "");
    }
    renderer.checkReached();
    for (const name of renderer.shared) shared.add(name);
    const routes = typeof module.exports.routes === "function" ? `${module.name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())}Routes` : undefined;
    if (routes) routeLists.push(routes);
    const named = [...[...renderer.imports].sort(), ...(routes ? [`routes as ${routes}`] : [])];
    if (named.length > 0) imports.push(`import { ${named.join(", ")} } from "./${module.name}.ts";`);
  }
  return [
    "// Generated by `npm run generate:operations` from gateway/supergraph.graphql, the overlays in rest-adapter/resources/",
    "// (scripts/rest-schemas.ts) and the route tables (scripts/operation-types.ts); do not edit. test/unit/operation-types.test.ts",
    "// fails when it is stale.",
    'import { Type } from "@sinclair/typebox";',
    'import type { Route } from "../route-kit/route.ts";',
    'import * as generated from "./resources.generated.ts";',
    `import { ${[...shared].sort().join(", ")} } from "../route-kit/schemas.ts";`,
    ...imports,
    "",
    ...sections,
    "/** Every resource's component, for rest-adapter/route-kit/components.ts: a new resource is documented without being listed by hand. */",
    `export const RESOURCE_COMPONENTS = [${components.join(", ")}];`,
    "",
    "/** Every overlay's routes, made with the shapes above, for rest-adapter/hosts/platform.ts. */",
    `export const RESOURCE_ROUTES = (): Route[] => [${routeLists.map((name) => `...${name}(generated)`).join(", ")}];`,
    "",
  ].join("\n");
}
