import type { GraphQLFormattedError } from "graphql";
import { isErrorCode } from "../errors/catalogue.ts";
import type { Logger } from "../logger.ts";

/**
 * Unexpected failures keep their details in the log, never in the response: only catalogue
 * errors (and GraphQL's own request errors) reach clients as they are. The gateway and every
 * split-mode subgraph format their errors with it.
 */
export function maskError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    if (isErrorCode(formatted.extensions?.error_code)) return formatted;
    if (typeof code === "string" && code !== "INTERNAL_SERVER_ERROR" && code !== "DOWNSTREAM_SERVICE_ERROR") return formatted;
    logger.error({ err: error }, "unexpected GraphQL error");
    return { message: "Internal server error", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}
