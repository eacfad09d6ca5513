import type { SchemaOptions, TSchema } from "@sinclair/typebox";

/**
 * What REST says about a resource beyond its GraphQL types. `npm run generate:operations`
 * (scripts/rest-schemas.ts) reads each `resource` exported from rest-adapter/resources/ and writes
 * rest-adapter/resources/resources.generated.ts: the GraphQL selection, the response component and the
 * request bodies, all from the supergraph's types with these overlays applied.
 */
export interface RestResource {
  /** the GraphQL object type: the component of that name and the selection `<TYPE>_FIELDS` */
  type: string;
  /**
   * Request bodies: each GraphQL input type, named after it, with the object type it mirrors. A
   * String input field whose mirrored field is an enum takes the enum's values (an input not yet
   * given the enum itself, CONTRIBUTING step 4); nested input objects mirror the same field's type.
   */
  inputs?: Record<string, string>;
  /** by GraphQL type name: the resource's type, the types nested in it, its inputs and theirs */
  types: Record<string, TypeOverlay>;
  /** false: a component only ever answered inside another resource's, with no `_links` of its own */
  links?: false;
  /** false: not a component but a shape the routes write inline (no `$id`, no `_links`); a `ref` cannot answer it */
  component?: false;
}

/** The TypeBox options of the type's object schema, and its fields'. */
export interface TypeOverlay extends SchemaOptions {
  fields?: Record<string, FieldOverlay>;
  /** fields REST leaves out: not selected, not answered, not accepted */
  omit?: string[];
  /** fields REST answers first, in this order (the order it answered them before they were generated); the others follow in GraphQL's */
  order?: string[];
  /**
   * A union's or an interface's: the field of its object types whose value says which one answers,
   * and that value for each (as OpenAPI's discriminator mapping: value to type). Each object type
   * answers its value as a literal; REST shows the discriminator's propertyName.
   */
  discriminator?: { propertyName: string; mapping: Readonly<Record<string, string>> };
}

/**
 * The TypeBox options of the field's value (the array of a list; for a nullable field, what the
 * union with null holds). A field without a description at any level takes its GraphQL one, on the
 * outermost schema, unless REST replaces its shape or lists an enum for a String input.
 */
export interface FieldOverlay extends SchemaOptions {
  /** a list's items */
  item?: SchemaOptions;
  /** a nullable field's union with null */
  orNull?: SchemaOptions;
  /** the REST shape where it differs from GraphQL's, exported by the resource's module or shared (rest-adapter/route-kit/schemas.ts); nullability still follows GraphQL */
  schema?: TSchema;
  /** an optional input field REST refuses null for, though GraphQL takes it */
  acceptsNull?: false;
  /** the field answers another resource's component (`Type.Ref`) and selects that resource's fields */
  ref?: true;
  /** answered only when asked for (`?expand=`): optional, and selected in `<TYPE>_EXPANSIONS` instead of `<TYPE>_FIELDS` */
  expand?: true;
  /** the values of a String field GraphQL leaves open (an answer without an enum, an input without an enum to mirror): REST lists them (a vocabulary list of lib/) */
  values?: readonly string[];
}
