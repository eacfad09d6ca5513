import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { TSchema } from "@sinclair/typebox";
import { AppError, type ValidationItem } from "./errors/app-error.ts";

// ajv and ajv-formats are CommonJS with a default export
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

export type RequestPart = "path" | "query" | "body" | "header";

/** Query strings and path segments arrive as text: coerce them like FastAPI does; bodies are JSON. */
const coercing = addFormats(new Ajv({ allErrors: true, coerceTypes: "array", useDefaults: true, strict: false }));
const strict = addFormats(new Ajv({ allErrors: true, coerceTypes: false, useDefaults: true, strict: false }));

export function compileValidator(schema: TSchema, part: RequestPart): ValidateFunction {
  return (part === "body" ? strict : coercing).compile(schema);
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let value: unknown = root;
  for (const segment of pointer.slice(1).split("/")) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function pathOf(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const TYPE_ERRORS: Record<string, [string, string]> = {
  integer: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  string: ["string_type", "Input should be a valid string"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  object: ["model_type", "Input should be a valid dictionary or object"],
  array: ["list_type", "Input should be a valid list"],
  null: ["none_required", "Input should be None"],
};

/** One ajv error as a FastAPI-style item: `{type, loc, msg, input, ctx}`. */
function toItem(error: ErrorObject, part: RequestPart, data: unknown): ValidationItem {
  const loc: (string | number)[] = [part, ...pathOf(error.instancePath)];
  const input = valueAt(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { type: "missing", loc: [...loc, String(params.missingProperty)], msg: "Field required", input: input ?? null, ctx: {} };
    case "type": {
      const expected = String(Array.isArray(params.type) ? params.type[0] : params.type);
      const [type, msg] = TYPE_ERRORS[expected] ?? ["type_error", `Input should be of type ${expected}`];
      return { type, loc, msg, input, ctx: {} };
    }
    case "enum": {
      const expected = (params.allowedValues as unknown[]).map((v) => `'${String(v)}'`);
      const text = expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : expected.join("");
      return { type: "enum", loc, msg: `Input should be ${text}`, input, ctx: { expected: text } };
    }
    case "const":
      return { type: "literal_error", loc, msg: `Input should be '${String(params.allowedValue)}'`, input, ctx: { expected: params.allowedValue } };
    case "pattern":
      return { type: "string_pattern_mismatch", loc, msg: `String should match pattern '${String(params.pattern)}'`, input, ctx: { pattern: params.pattern } };
    case "minLength":
      return { type: "string_too_short", loc, msg: `String should have at least ${params.limit} characters`, input, ctx: { min_length: params.limit } };
    case "maxLength":
      return { type: "string_too_long", loc, msg: `String should have at most ${params.limit} characters`, input, ctx: { max_length: params.limit } };
    case "minimum":
      return { type: "greater_than_equal", loc, msg: `Input should be greater than or equal to ${params.limit}`, input, ctx: { ge: params.limit } };
    case "maximum":
      return { type: "less_than_equal", loc, msg: `Input should be less than or equal to ${params.limit}`, input, ctx: { le: params.limit } };
    case "exclusiveMinimum":
      return { type: "greater_than", loc, msg: `Input should be greater than ${params.limit}`, input, ctx: { gt: params.limit } };
    case "minItems":
      return { type: "too_short", loc, msg: `List should have at least ${params.limit} items`, input, ctx: { min_length: params.limit } };
    case "maxItems":
      return { type: "too_long", loc, msg: `List should have at most ${params.limit} items`, input, ctx: { max_length: params.limit } };
    case "additionalProperties":
      return { type: "extra_forbidden", loc: [...loc, String(params.additionalProperty)], msg: "Extra inputs are not permitted", input: valueAt(input, `/${String(params.additionalProperty)}`), ctx: {} };
    case "format":
      return { type: "value_error", loc, msg: `Value error, not a valid ${params.format}`, input, ctx: { format: params.format } };
    default:
      return { type: "value_error", loc, msg: `Value error, ${error.message ?? "invalid"}`, input, ctx: {} };
  }
}

/**
 * ajv reports a failing `anyOf`/`oneOf` once per branch plus once for the combinator, and a failing
 * `then` once more as an `if` error at the parent; a client needs one line per location, so drop
 * the combinators' own lines and keep the first item for each `loc`.
 */
export function validationItems(errors: ErrorObject[], part: RequestPart, data: unknown): ValidationItem[] {
  const seen = new Set<string>();
  const items: ValidationItem[] = [];
  for (const error of errors) {
    if (error.keyword === "anyOf" || error.keyword === "oneOf" || error.keyword === "if") continue;
    const item = toItem(error, part, data);
    const key = JSON.stringify(item.loc);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}

/** Where a value sits in a request part: its key in its parent, and the parent's place. */
interface Place {
  node: unknown;
  key?: string | number;
  parent?: Place;
}

function locOf(place: Place, part: RequestPart): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Place | undefined = place; at?.parent; at = at.parent) path.push(at.key!);
  return [part, ...path.reverse()];
}

/**
 * Text PostgreSQL cannot store: a NUL (U+0000) in any string or key of `value`, which would fail
 * the database call as an internal error. One item per place, at `part` and its path, at most 10.
 * Walked with a stack of its own, not by recursion, so no nesting can exhaust the call stack; a
 * location is built only for what is reported.
 */
export function nulCharacterItems(value: unknown, part: RequestPart): ValidationItem[] {
  const items: ValidationItem[] = [];
  const stack: Place[] = [{ node: value }];
  while (stack.length > 0 && items.length < 10) {
    const place = stack.pop()!;
    const { node, key } = place;
    if (typeof key === "string" && key.includes("\u0000")) items.push({ type: "string_nul", loc: locOf(place, part), msg: "Names must not contain the NUL character (U+0000)", input: key, ctx: {} });
    if (typeof node === "string") {
      if (node.includes("\u0000")) items.push({ type: "string_nul", loc: locOf(place, part), msg: "Text must not contain the NUL character (U+0000)", input: node, ctx: {} });
    } else if (Array.isArray(node)) {
      // pushed last first, so they are reported in order
      for (let index = node.length - 1; index >= 0; index--) stack.push({ node: node[index], key: index, parent: place });
    } else if (node !== null && typeof node === "object") {
      const entries = Object.entries(node);
      for (let index = entries.length - 1; index >= 0; index--) stack.push({ node: entries[index]![1], key: entries[index]![0], parent: place });
    }
  }
  return items;
}

// one compiled validator per schema text: schemas checked this way are few (a catalogue, a kind's input)
const checkers = new Map<string, ValidateFunction>();

/**
 * `value` checked against a JSON Schema only known where it is used (a strategy's parameters, a
 * rule's trigger, a task kind's input): a copy with the schema's defaults filled in, or
 * GEN-422-001 whose items sit under `loc` (["parameters"] → parameters.<name>).
 */
export function checkJsonAt(schema: object, value: unknown, loc: readonly (string | number)[]): Record<string, unknown> {
  const text = JSON.stringify(schema);
  let validate = checkers.get(text);
  if (!validate) checkers.set(text, (validate = strict.compile(schema)));
  const copy = structuredClone(value ?? {});
  if (!validate(copy)) throw new AppError("GEN-422-001", { validation: validationItems(validate.errors ?? [], "body", copy).map((item) => ({ ...item, loc: [...loc, ...item.loc.slice(1)] })) });
  return copy as Record<string, unknown>;
}
