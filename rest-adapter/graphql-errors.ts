import type { GraphQLFormattedError } from "graphql";
import { AppError, catalogueErrorOf } from "../lib/errors/app-error.ts";

/**
 * The ProblemDetail behind a GraphQL response's errors: the first catalogue error wins (its
 * extensions survive the gateway); anything else is an internal error, never shown as is.
 */
export function errorFromGraphQL(errors: readonly GraphQLFormattedError[]): AppError {
  return catalogueErrorOf(errors) ?? new AppError("GEN-500-001", { cause: new Error(errors.map((e) => e.message).join("; ")) });
}
