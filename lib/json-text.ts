import { randomBytes } from "node:crypto";
import { Kind, type FieldNode, type SelectionSetNode } from "graphql";

/**
 * A JSON value already written as text, exactly as JSON.stringify would write it: stringifyJson
 * (and so the REST adapter's answers) writes `text` where the value goes, unparsed.
 */
export class JsonText {
  constructor(
    readonly text: string,
    /**
     * Set where the text is a list of objects each with exactly these leaf fields, in this order
     * (a page's items cut from the stored ones): the gateway's shaping takes the text as it is
     * where the client's selection there is the same, and parses it elsewhere (gateway/result-shaping.ts).
     */
    readonly keys?: readonly string[],
  ) {}

  /** In stringifyJson, its marker; anywhere else, the value its text is (as JSON.stringify would write it). */
  toJSON(): unknown {
    if (met === undefined) return JSON.parse(this.text);
    met.push(this);
    return MARKER + (met.length - 1);
  }
}

/** A response path, as graphql's `pathToArray` gives it. */
export type ResponsePath = readonly (string | number)[];

/**
 * Answers resolvers give as JSON text instead of objects (issue 30: a REST feed page's fifty
 * stored items, ~33 kB, were parsed, walked by the executor into new objects and stringified
 * again, unchanged). One per operation run, in its context (RequestContext.json_text), put there
 * by a client that writes JsonText (the REST adapter, for a route that declares `jsonText`; the
 * gateway's known queries, gateway/known-operations.ts).
 *
 * It is open only while an in-process subgraph runs an operation and its answer is then handed
 * on whole (`during`): the gateway's single-fetch shortcut, whose answer is the client's path for
 * path, and each fetch of a plan on the gateway's lean execution (`forFetch`), whose answer the
 * gateway merges into the client's by reference. There a resolver may `offer` the value at a path
 * as text and answer a placeholder (an empty list), and `during` puts each text into the data at
 * its path as a JsonText. Elsewhere (Apollo Gateway's own executor, a subgraph in another
 * process) `offer` refuses and resolvers answer objects.
 */
export class JsonTextAnswers {
  private open = false;
  private grafted = false;
  private readonly texts = new Map<string, { path: ResponsePath; text: string; keys: readonly string[] | undefined }>();

  /** `parent`: the operation's answers, for those of one of its fetches (forFetch) */
  constructor(private readonly parent?: JsonTextAnswers) {}

  /**
   * The answers of one fetch of this operation's plan (gateway/plan-execution.ts): offered at the
   * fetch's own paths and put into its answer, which the gateway merges into the client's; this
   * operation's `used` then tells its writer so.
   */
  forFetch(): JsonTextAnswers {
    return new JsonTextAnswers(this);
  }

  /**
   * A resolver's offer of the value at `path` (a field it answers) as `text` (with `keys`: see
   * JsonText): true, it answers an empty list there instead, which `during` replaces; false, it
   * answers objects.
   */
  offer(path: ResponsePath, text: string, keys?: readonly string[]): boolean {
    if (!this.open) return false;
    // an operation run again (graphql-js after graphql-jit) offers the same path again
    this.texts.set(path.join("\u0000"), { path, text, keys });
    return true;
  }

  /** Whether some value of the data, or of a fetch's merged into it, is a JsonText. */
  get used(): boolean {
    return this.grafted;
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
    for (const { path, text, keys } of this.texts.values()) graft(result.data, path, new JsonText(text, keys));
    if (this.texts.size > 0) this.markGrafted();
    return result;
  }

  private markGrafted(): void {
    this.grafted = true;
    this.parent?.markGrafted();
  }
}

/** Sets the value at `path` where the data has it (a null on the way, a failed field's, leaves it so). */
function graft(data: unknown, path: ResponsePath, value: JsonText): void {
  let node = data as Record<string | number, unknown> | null | undefined;
  for (let i = 0; i < path.length - 1 && node != null; i++) node = node[path[i]!] as typeof node;
  if (node != null && typeof node === "object") node[path[path.length - 1]!] = value;
}

/**
 * JSON.stringify's text of `value`, a JsonText written as its text wherever it is: the whole
 * value is JSON.stringify's, natively, each JsonText written there as a marker (its toJSON), then
 * each marker is replaced with its text. A walk of the objects on the way to each text cost
 * three times the native writing of the three-subgraph query's answer (issue 30). The marker
 * holds this process's random nonce, which no data can hold (it never leaves the process); where
 * a marker is not found as written (a toJSON that stringifies on its own), each JsonText is written
 * as the value its text is.
 */
export function stringifyJson(value: unknown): string | undefined {
  const pieces = jsonPieces(value);
  return pieces === undefined ? undefined : pieces.length === 1 ? pieces[0] : pieces.join("");
}

/**
 * stringifyJson's text as UTF-8 bytes, each piece written once into one buffer. A string answer
 * (a page's ~33 kB of stored items between a few small pieces) was copied three more times on its
 * way out: flattened once for its Content-Length and again behind the HTTP head, then encoded for
 * the socket; two of these copies, on the JS heap, were garbage at once.
 */
export function stringifyJsonBytes(value: unknown): Buffer {
  const pieces = jsonPieces(value);
  if (pieces === undefined) throw new TypeError("stringifyJsonBytes: JSON has no text for this value");
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes;
}

/** The JsonTexts JSON.stringify met, in the order it wrote them, while jsonPieces runs it; undefined otherwise. */
let met: JsonText[] | undefined;
const MARKER = `\u0000${randomBytes(16).toString("hex")}:`;
/** The marker as JSON.stringify writes it, without its closing quote (the JsonText's index and the quote follow) */
const WRITTEN_MARKER = JSON.stringify(MARKER).slice(0, -1);

/** stringifyJson's text in pieces: what JSON.stringify wrote between the JsonTexts, and their texts. */
function jsonPieces(value: unknown): string[] | undefined {
  const texts: JsonText[] = [];
  met = texts;
  let written: string | undefined;
  try {
    written = JSON.stringify(value);
  } finally {
    met = undefined;
  }
  if (written === undefined || texts.length === 0) return written === undefined ? undefined : [written];
  const pieces: string[] = [];
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const marker = `${WRITTEN_MARKER}${i}"`;
    const found = written.indexOf(marker, at);
    if (found < 0) return [JSON.stringify(value)];
    pieces.push(written.slice(at, found), texts[i]!.text);
    at = found + marker.length;
  }
  pieces.push(written.slice(at));
  return pieces;
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
