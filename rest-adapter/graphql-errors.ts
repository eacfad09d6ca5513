import type { GraphQLFormattedError } from "graphql";
import { AppError, fromExtensions } from "../lib/errors/app-error.ts";

/**
 * The ProblemDetail behind a GraphQL response's errors: the first catalogue error wins (its
 * extensions survive the gateway); anything else is an internal error, never shown as is.
 */
export function errorFromGraphQL(errors: readonly GraphQLFormattedError[]): AppError {
  for (const error of errors) {
    const known = fromExtensions(error.extensions as Record<string, unknown> | undefined);
    if (known) return known;
  }
  return new AppError("GEN-500-001", { cause: new Error(errors.map((e) => e.message).join("; ")) });
}
