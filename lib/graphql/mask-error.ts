import type { GraphQLFormattedError } from "graphql";
import { appError, DEFAULT_RETRY_AFTER_SECONDS, type AppError } from "../errors/app-error.ts";
import { isDatabaseUnavailable, isUnstorableText } from "../db/prisma-errors.ts";
import { isErrorCode } from "../errors/catalogue.ts";
import type { Logger } from "../logger.ts";

/**
 * Unexpected failures keep their details in the log, never in the response: only catalogue
 * errors (and GraphQL's own request errors) reach clients as they are. A database that cannot be
 * reached is a 503 to retry; text PostgreSQL cannot store is the caller's 422 (the REST adapter
 * refuses it before, with its location; GraphQL clients meet it here). The gateway and every
 * split-mode subgraph format their errors with it.
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
    if (isUnstorableText(error)) {
      const refused = appError("GEN-422-001", "Text must not contain the NUL character (U+0000).");
      return { message: refused.detail, path: formatted.path, extensions: { ...refused.extensions } };
    }
    logger.error({ err: error }, "unexpected GraphQL error");
    return { message: "Internal server error", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}

/** What a request meets while its database is away (GEN-503-001, retry after a second). */
export function databaseUnavailable(): AppError {
  return appError("GEN-503-001", "The database is unavailable right now; retry shortly.", { retryAfter: DEFAULT_RETRY_AFTER_SECONDS });
}
