import pino, { type Logger } from "pino";
import { CREDENTIAL_HEADERS } from "./auth/credential-headers.ts";
import { PRINCIPAL_HEADER } from "./auth/internal-principal.ts";

export type { Logger };

/** Headers whose values never reach a log line: every credential, the signed principal, cookies. */
export const REDACTED_HEADERS = [...CREDENTIAL_HEADERS.filter((name) => name !== "x-platform-orgid"), PRINCIPAL_HEADER, "cookie"];

/** One JSON line per event on stdout (or `destination`: tests read what was logged); tests pass level "silent". */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "platform", ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_HEADERS.map((name) => `req.headers['${name}']`), censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
