import type { GraphQLFormattedError } from "graphql";
import { AppError, catalogueErrorOf } from "../lib/errors/app-error.ts";
import type { RequestPart } from "../lib/json-validation.ts";
import { isDatabaseUnavailable } from "../lib/db/prisma-errors.ts";
import { databaseUnavailable } from "../lib/graphql/mask-error.ts";

/** graphql-js's words when a variable does not coerce to its input type. */
const VARIABLE_REFUSED = /^Variable "\$(\w+)" got invalid value .*?; (.*)$/s;

/**
 * The ProblemDetail behind a GraphQL response's errors: the first catalogue error wins (its
 * extensions survive the gateway). A variable the operation's input types refuse (a field the
 * route's schema does not list, an integer beyond 32 bits) is the request's fault, a 422 at
 * `part` (where the route took its input), never a 500. Anything else is an internal error,
 * never shown as is.
 */
export function errorFromGraphQL(errors: readonly GraphQLFormattedError[], part: RequestPart = "body"): AppError {
  const catalogued = catalogueErrorOf(errors);
  if (catalogued) return catalogued;
  // in-process, subgraph errors arrive unformatted: the database away is the caller's 503 here too
  if (errors.some(isDatabaseUnavailable)) return databaseUnavailable();
  const refused = errors.map((error) => VARIABLE_REFUSED.exec(error.message)).filter((match) => match !== null);
  if (refused.length > 0 && refused.length === errors.length)
    return new AppError("GEN-422-001", {
      validation: refused.map(([, variable, reason]) => ({ type: "value_error", loc: [part], msg: reason!, input: null, ctx: { variable: variable! } })),
    });
  return new AppError("GEN-500-001", { cause: new Error(errors.map((e) => e.message).join("; ")) });
}
