import pino, { type Logger } from "pino";
import { CREDENTIAL_HEADERS } from "./auth/credential-headers.ts";
import { PRINCIPAL_HEADER } from "./auth/internal-principal.ts";

export type { Logger };

/** Headers whose values never reach a log line: every credential, the signed principal, cookies. */
export const REDACTED_HEADERS = [...CREDENTIAL_HEADERS.filter((name) => name !== "x-platform-orgid"), PRINCIPAL_HEADER, "cookie"];

/**
 * Card secrets and what unlocks them, censored under these names wherever they sit in a log
 * object: the number (`number`, `card_number`, `pan`), `cvv`, the expiry, their sealed columns and
 * the `signature` of a card-details proof (also every other signature: none belongs in a log).
 */
export const REDACTED_CARD_FIELDS = ["number", "card_number", "pan", "cvv", "expiry_month", "expiry_year", "number_encrypted", "cvv_encrypted", "signature"] as const;

/** How deep below the top of a log object REDACTED_CARD_FIELDS are found (pino paths cannot say "any depth"). */
export const CARD_REDACT_DEPTH = 6;

/** `number`, `*.number`, `*.*.number`, … down to CARD_REDACT_DEPTH wildcard levels, for each card field. */
export function cardRedactPaths(): string[] {
  return REDACTED_CARD_FIELDS.flatMap((field) => Array.from({ length: CARD_REDACT_DEPTH + 1 }, (_, depth) => [...Array<string>(depth).fill("*"), field].join(".")));
}

/** One JSON line per event on stdout (or `destination`: tests read what was logged); tests pass level "silent". */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "platform", ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...REDACTED_HEADERS.map((name) => `req.headers['${name}']`), ...cardRedactPaths()], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
