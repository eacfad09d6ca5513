import { isUtf8 } from "node:buffer";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parse } from "lossless-json";
import { scan } from "secure-json-parse";
import { AppError } from "./errors/app-error.ts";

/**
 * How deeply a JSON body may nest objects and arrays (`{"a":[1]}` is 2 deep). The deepest
 * documented body nests a few levels; this leaves room for free-form JSON fields (a strategy's
 * parameters, a task's input) while keeping every later walk over client data (validation, the
 * Idempotency-Key hash, GraphQL coercion) far from the call stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * A body the JSON rules refuse, carrying the code of Fastify's own refusal of that kind (invalid
 * JSON, empty, wrong media type), which every listener's error handler already answers in its own
 * shape: 422 `json_invalid` or the route's `bodyError` on the REST hosts, 400 on GraphQL.
 */
export class JsonBodyError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: "FST_ERR_CTP_INVALID_JSON_BODY" | "FST_ERR_CTP_EMPTY_JSON_BODY" | "FST_ERR_CTP_INVALID_MEDIA_TYPE",
    message: string,
  ) {
    super(message);
    this.statusCode = code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? 415 : 400;
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const COLON = 0x3a;

/**
 * -1 where `text` nests deeper than `max`, counted without parsing (the parser below recurses per
 * level); else how many names it writes (strings followed by a colon): in valid JSON, one per
 * member of every object.
 */
function namesWithin(text: string, max: number): number {
  let depth = 0;
  let names = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // brackets inside a string do not nest: jump to its closing quote
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === BACKSLASH) i++;
        else if (inner === QUOTE) break;
      }
      let next = i + 1;
      while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) names++;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > max) return -1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return names;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** How many members the objects in `value` have, all levels. */
function membersIn(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let members = 0;
  if (Array.isArray(value)) {
    for (const item of value) members += membersIn(item);
    return members;
  }
  for (const key in value) members += 1 + membersIn((value as Record<string, unknown>)[key]);
  return members;
}

const PARSE_OPTIONS = {
  // numbers as JSON.parse reads them
  parseNumber: Number,
  // lossless-json calls this only when the values differ: `{"a":1,"a":1}` means one thing
  onDuplicateKey: ({ key, position }: { key: string; position: number }) => {
    throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", `Duplicate key '${key}' at position ${position}: a name appears once in an object`);
  },
};

/**
 * JSON text read by our rules, which are stricter than JSON.parse: no byte order mark (RFC 8259
 * 8.1: senders must not add one), at most `maxDepth` levels, no name repeated in one object with
 * another value (parsers disagree on which one wins: a signature or an audit could see one amount
 * and the ledger another), and, as Fastify refuses them, no `__proto__` or
 * `constructor.prototype` keys. Throws JsonBodyError.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (text.charCodeAt(0) === 0xfeff) throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", "The body starts with a byte order mark; send JSON without one (RFC 8259, section 8.1)");
  const names = namesWithin(text, maxDepth);
  if (names < 0) throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", `The body nests objects and arrays more than ${maxDepth} levels deep`);
  // the common case first, on the native parser (a third of the cost): valid JSON whose objects
  // hold as many members as the text writes names repeats none; anything else (a syntax error, a
  // repeated name, a text that could hold the keys `scan` looks for) is lossless-json's to read
  // or refuse, with its words
  if (!mayHoldPrototypeKeys(text)) {
    let fast: unknown;
    try {
      fast = JSON.parse(text);
    } catch {
      fast = undefined;
    }
    if (fast !== undefined && membersIn(fast) === names) return fast;
  }
  let value: unknown;
  try {
    value = parse(text, null, PARSE_OPTIONS);
  } catch (error) {
    if (error instanceof JsonBodyError) throw error;
    throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", (error as Error).message);
  }
  if (value !== null && typeof value === "object" && mayHoldPrototypeKeys(text)) {
    try {
      scan(value, { protoAction: "error", constructorAction: "error" });
    } catch (error) {
      throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", (error as Error).message);
    }
  }
  return value;
}

/** Only a text naming `__proto__` or `constructor` (or escaping a character of a name) can hold them. */
function mayHoldPrototypeKeys(text: string): boolean {
  return text.includes("__proto__") || text.includes("constructor") || text.includes("\\u");
}

/** GEN-422-001 for a body that is not JSON as we read it: FastAPI's `json_invalid` item at `body`, `ctx.error` saying why. */
export function jsonInvalid(reason: string): AppError {
  return new AppError("GEN-422-001", { validation: [{ type: "json_invalid", loc: ["body"], msg: "JSON decode error", input: {}, ctx: { error: reason } }] });
}

const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi;

/**
 * A JSON request body from its bytes: its Content-Type names no charset but UTF-8 (any case,
 * quoted or not; else 415), the bytes are UTF-8 and not empty, then `parseJson`'s rules.
 */
export function parseJsonBody(bytes: Buffer, contentType: string | undefined, maxDepth = MAX_JSON_DEPTH): unknown {
  for (const [, quoted, bare] of (contentType ?? "").matchAll(CHARSET)) {
    const charset = quoted ?? bare ?? "";
    if (charset.toLowerCase() !== "utf-8") throw new JsonBodyError("FST_ERR_CTP_INVALID_MEDIA_TYPE", `The charset ${charset} is not accepted; send UTF-8`);
  }
  if (bytes.length === 0) throw new JsonBodyError("FST_ERR_CTP_EMPTY_JSON_BODY", "The body is empty");
  if (!isUtf8(bytes)) throw new JsonBodyError("FST_ERR_CTP_INVALID_JSON_BODY", "The body is not valid UTF-8");
  return parseJson(bytes.toString("utf8"), maxDepth);
}

/**
 * Makes `application/json` bodies on `app` go through `parseJsonBody`, and refuses `text/plain`
 * (Fastify's default hands it over as a string) with 415 like any other media type. `onBytes`
 * sees the exact bytes first (lib/auth/body-digest.ts); `maxDepth` is for internal listeners,
 * whose bodies wrap a client's in a GraphQL request.
 */
export function acceptJsonBodies(app: FastifyInstance, options: { maxDepth?: number; onBytes?: (request: FastifyRequest, bytes: Buffer) => void } = {}): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    options.onBytes?.(request, body as Buffer);
    try {
      done(null, parseJsonBody(body as Buffer, request.headers["content-type"], options.maxDepth));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
