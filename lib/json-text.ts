import { Kind, type FieldNode, type SelectionSetNode } from "graphql";

/**
 * A JSON value already written as text, exactly as JSON.stringify would write it: stringifyJson
 * (and so the REST adapter's answers) writes `text` where the value goes, unparsed.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A response path, as graphql's `pathToArray` gives it. */
export type ResponsePath = readonly (string | number)[];

/**
 * Answers resolvers give as JSON text instead of objects (issue 30: a REST feed page's fifty
 * stored items, ~33 kB, were parsed, walked by the executor into new objects and stringified
 * again, unchanged). One per operation run, in its context (RequestContext.json_text), put there
 * by a client that writes JsonText (the REST adapter, for a route that declares `jsonText`).
 *
 * It is open only while an executor whose answer is the subgraph's own, path for path, runs the
 * operation (`during`: the gateway's single-fetch shortcut); there a resolver may `offer` the
 * value at a path as text and answer a placeholder (an empty list), and `during` puts each text
 * into the data at its path as a JsonText. Elsewhere (the Apollo Gateway's fetches, whose paths
 * are the gateway's to map) `offer` refuses and resolvers answer objects.
 */
export class JsonTextAnswers {
  private open = false;
  private readonly texts = new Map<string, { path: ResponsePath; text: string }>();

  /**
   * A resolver's offer of the value at `path` (a field it answers) as `text`: true, it answers
   * an empty list there instead, which `during` replaces; false, it answers objects.
   */
  offer(path: ResponsePath, text: string): boolean {
    if (!this.open) return false;
    // an operation run again (graphql-js after graphql-jit) offers the same path again
    this.texts.set(path.join("\u0000"), { path, text });
    return true;
  }

  /** Whether some value of the data is a JsonText. */
  get used(): boolean {
    return this.texts.size > 0;
  }

  /** Runs `execute` open to offers, then puts each offered text at its path in the data. */
  async during<T extends { data?: Record<string, unknown> | null }>(execute: () => Promise<T>): Promise<T> {
    this.open = true;
    let result: T;
    try {
      result = await execute();
    } finally {
      this.open = false;
    }
    for (const { path, text } of this.texts.values()) graft(result.data, path, new JsonText(text));
    return result;
  }
}

/** Sets the value at `path` where the data has it (a null on the way, a failed field's, leaves it so). */
function graft(data: unknown, path: ResponsePath, value: JsonText): void {
  let node = data as Record<string | number, unknown> | null | undefined;
  for (let i = 0; i < path.length - 1 && node != null; i++) node = node[path[i]!] as typeof node;
  if (node != null && typeof node === "object") node[path[path.length - 1]!] = value;
}

/**
 * JSON.stringify's text of `value`, a JsonText written as its text wherever it is. The plain
 * objects and arrays on the way to a JsonText are walked here; anything else, a Date with its
 * toJSON included, is JSON.stringify's.
 */
export function stringifyJson(value: unknown): string | undefined {
  const pieces: string[] = [];
  return addJson(value, pieces) ? pieces.join("") : undefined;
}

/**
 * stringifyJson's text as UTF-8 bytes, each piece written once into one buffer. A string answer
 * (a page's ~33 kB of stored items between a few small pieces) was copied three more times on its
 * way out: flattened once for its Content-Length and again behind the HTTP head, then encoded for
 * the socket; two of these copies, on the JS heap, were garbage at once.
 */
export function stringifyJsonBytes(value: unknown): Buffer {
  const pieces: string[] = [];
  if (!addJson(value, pieces)) throw new TypeError("stringifyJsonBytes: JSON has no text for this value");
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes;
}

/** Appends `value`'s JSON text to `pieces`: false, nothing appended, where JSON.stringify has none (undefined, a function). */
function addJson(value: unknown, pieces: string[]): boolean {
  if (holdsJsonText(value)) {
    addHolding(value, pieces);
    return true;
  }
  // what holds no JsonText (pagination, meta, links) is JSON.stringify's at once, natively
  const text = JSON.stringify(value);
  if (text === undefined) return false;
  pieces.push(text);
  return true;
}

/** Appends the JSON text of `value`, which holdsJsonText has answered true for (so it is not checked again). */
function addHolding(value: unknown, pieces: string[]): void {
  if (value instanceof JsonText) {
    pieces.push(value.text);
    return;
  }
  if (Array.isArray(value)) {
    pieces.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pieces.push(",");
      if (!addJson(value[i], pieces)) pieces.push("null");
    }
    pieces.push("]");
    return;
  }
  // a plain object
  let separator = "{";
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key];
    if (holdsJsonText(item)) {
      pieces.push(separator + JSON.stringify(key) + ":");
      addHolding(item, pieces);
    } else {
      const text = JSON.stringify(item);
      if (text === undefined) continue;
      pieces.push(separator + JSON.stringify(key) + ":" + text);
    }
    separator = ",";
  }
  pieces.push(separator === "{" ? "{}" : "}");
}

/** Whether `value` is a JsonText, or an array or plain object (without toJSON) with one inside: what stringifyJson walks. */
function holdsJsonText(value: unknown): boolean {
  if (value instanceof JsonText) return true;
  if (Array.isArray(value)) return value.some(holdsJsonText);
  if (typeof value !== "object" || value === null || "toJSON" in value || !isPlainObject(value)) return false;
  for (const key in value) if (holdsJsonText((value as Record<string, unknown>)[key])) return true;
  return false;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether `field`'s selection is `expected`'s, field for field in the same order: no alias,
 * argument, directive or fragment anywhere, so the answer's keys are the stored text's.
 * `expected`: a selection set as parse() gives it (`{ id type asset { symbol } }`).
 */
export function selectsExactly(field: FieldNode, expected: SelectionSetNode): boolean {
  let known = exactSelections.get(field);
  if (known === undefined) exactSelections.set(field, (known = new Map()));
  let same = known.get(expected);
  if (same === undefined) known.set(expected, (same = sameSelection(field.selectionSet, expected)));
  return same;
}

const exactSelections = new WeakMap<FieldNode, Map<SelectionSetNode, boolean>>();

function sameSelection(actual: SelectionSetNode | undefined, expected: SelectionSetNode | undefined): boolean {
  if (!actual || !expected) return actual === expected;
  if (actual.selections.length !== expected.selections.length) return false;
  return actual.selections.every((node, i) => {
    const want = expected.selections[i] as FieldNode;
    return (
      node.kind === Kind.FIELD &&
      !node.alias &&
      !node.arguments?.length &&
      !node.directives?.length &&
      node.name.value === want.name.value &&
      sameSelection(node.selectionSet, want.selectionSet)
    );
  });
}
