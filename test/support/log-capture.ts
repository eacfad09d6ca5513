import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../lib/logger.ts";

/** The production logger (redaction included) writing into `lines`, so a test can read what was logged. */
export function capturingLogger(level = "trace"): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger(level, {}, stream) };
}
