import type { GraphQLFormattedError } from "graphql";
import { appError, type AppError } from "../errors/app-error.ts";
import { isDatabaseUnavailable } from "../db/prisma-errors.ts";
import { isErrorCode } from "../errors/catalogue.ts";
import type { Logger } from "../logger.ts";

/** PostgreSQL refusing text it cannot store (22021: a NUL character): the caller's input, not our fault. */
const UNSTORABLE_TEXT = /Code: `22021`|invalid byte sequence for encoding/;

/**
 * Unexpected failures keep their details in the log, never in the response: only catalogue
 * errors (and GraphQL's own request errors) reach clients as they are. Text PostgreSQL cannot
 * store becomes the caller's 422, and a database that cannot be reached a 503 to retry (the REST adapter refuses it before, with its location; GraphQL
 * clients meet it here). The gateway and every split-mode subgraph format their errors with it.
 */
export function maskError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    if (isErrorCode(formatted.extensions?.error_code)) return formatted;
    if (typeof code === "string" && code !== "INTERNAL_SERVER_ERROR" && code !== "DOWNSTREAM_SERVICE_ERROR") return formatted;
    if (isDatabaseUnavailable(error)) {
      const unavailable = databaseUnavailable();
      return { message: unavailable.detail, path: formatted.path, extensions: { ...unavailable.extensions } };
    }
    const cause = (error as { originalError?: unknown } | undefined)?.originalError ?? error;
    if (cause instanceof Error && UNSTORABLE_TEXT.test(cause.message)) {
      const refused = appError("GEN-422-001", "Text must not contain the NUL character (U+0000).");
      return { message: refused.detail, path: formatted.path, extensions: { ...refused.extensions } };
    }
    logger.error({ err: error }, "unexpected GraphQL error");
    return { message: "Internal server error", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}

/** What a request meets while its database is away (GEN-503-001, retry after a second). */
export function databaseUnavailable(): AppError {
  return appError("GEN-503-001", "The database is unavailable right now; retry shortly.", { retryAfter: 1 });
}
