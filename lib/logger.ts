import cluster from "node:cluster";
import pino, { type Logger } from "pino";
import { CREDENTIAL_HEADERS } from "./auth/credential-headers.ts";
import { PRINCIPAL_HEADER } from "./auth/internal-principal.ts";

export type { Logger };

/** Headers whose values never reach a log line: every credential, the signed principal, cookies. */
export const REDACTED_HEADERS = [...CREDENTIAL_HEADERS.filter((name) => name !== "x-platform-orgid"), PRINCIPAL_HEADER, "cookie"];

/**
 * Card secrets and what unlocks them, censored under these names wherever they sit in a log
 * line: the number (`number`, `card_number`, `pan`), `cvv`, the expiry, their sealed columns and
 * the `signature` of a card-details proof (also every other signature: none belongs in a log).
 */
export const REDACTED_CARD_FIELDS = ["number", "card_number", "pan", "cvv", "expiry_month", "expiry_year", "number_encrypted", "cvv_encrypted", "signature"] as const;

const CENSORED = "[redacted]";
const CARD_FIELDS: ReadonlySet<string> = new Set(REDACTED_CARD_FIELDS);
const CARD_FIELD_KEY = new RegExp(`"(?:${REDACTED_CARD_FIELDS.join("|")})":`);

/** Replaces every card field's value in a parsed line, at any depth; whether there was one. */
function censorCardFields(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  let censored = false;
  for (const [key, item] of Object.entries(value)) {
    if (CARD_FIELDS.has(key)) {
      (value as Record<string, unknown>)[key] = CENSORED;
      censored = true;
    } else if (censorCardFields(item)) censored = true;
  }
  return censored;
}

/**
 * The last step before pino writes a line: every card field's value censored, whatever its depth
 * and wherever it came from (the call's object, a serializer's output, a child's bindings). Done
 * on the finished line rather than with pino's wildcard redaction paths, which ran over the
 * bindings of every child logger (Fastify makes one per request) even when nothing was logged,
 * and could only reach as deep as their wildcards. A line naming none of the fields, nearly every
 * line, is written as it is after one regular expression test.
 */
export function censorCardFieldsInLine(line: string): string {
  if (!CARD_FIELD_KEY.test(line)) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // pino writes JSON; should a line ever not be, it is not written with what it might hold
    return `${JSON.stringify({ msg: "a log line naming a card field was withheld: it could not be censored" })}\n`;
  }
  return censorCardFields(parsed) ? `${JSON.stringify(parsed)}\n` : line;
}

/** One JSON line per event on stdout (or `destination`: tests read what was logged); tests pass level "silent". */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    // a worker of several (WORKERS > 1) says which it is
    base: { service: "platform", ...(cluster.isWorker && { pid: process.pid }), ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_HEADERS.map((name) => `req.headers['${name}']`), censor: CENSORED },
    hooks: { streamWrite: censorCardFieldsInLine },
  };
  return destination ? pino(options, destination) : pino(options);
}
