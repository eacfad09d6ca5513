import pino, { type Logger } from "pino";

export type { Logger };

/** One JSON line per event on stdout; tests pass level "silent". */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: "platform", ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["req.headers['x-platform-jwt']", "req.headers['x-platform-pat']", "req.headers['x-platform-token']", "req.headers.authorization"],
      censor: "[redacted]",
    },
  });
}
