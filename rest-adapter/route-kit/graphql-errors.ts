import type { GraphQLFormattedError } from "graphql";
import { AppError, catalogueErrorOf } from "../../lib/errors/app-error.ts";
import type { RequestPart } from "../../lib/json-validation.ts";
import { isDatabaseUnavailable } from "../../lib/db/prisma-errors.ts";
import { databaseUnavailable } from "../../lib/graphql/mask-error.ts";
import type { Route } from "./route.ts";

/** graphql-js's words when a variable does not coerce to its input type. */
const VARIABLE_REFUSED = /^Variable "\$(\w+)" got invalid value .*?; (.*)$/s;

/**
 * The part of the request a route took an input field from (the first element of a domain
 * validation item's `loc`); called without one, the part its input as a whole came from.
 */
export type FieldPart = (field?: string | number) => RequestPart;

/** The names a route's path, query or body schema declares. */
function fieldNames(schema: unknown): ReadonlySet<string> {
  return new Set(Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}));
}

/**
 * A route's FieldPart: the part whose schema declares the field (no route declares a name in two
 * parts), else the query of a read and the body of a write.
 */
export function fieldPartOf(route: Pick<Route, "method" | "params" | "query" | "body">): FieldPart {
  const parts = [["path", fieldNames(route.params)], ["query", fieldNames(route.query)], ["body", fieldNames(route.body)]] as const;
  const otherwise = route.method === "GET" || route.method === "DELETE" ? "query" : "body";
  return (field) => parts.find(([, names]) => typeof field === "string" && names.has(field))?.[0] ?? otherwise;
}

/**
 * A domain validation item names the field by its path in the operation's input (`["amount"]`,
 * `["trigger", "cron"]`, `[]` for the input as a whole): REST answers it under the part of the
 * request the field came from (`["body", "amount"]`).
 */
function locatedInRequest(error: AppError, partOf: FieldPart): AppError {
  if (!error.validation) return error;
  const validation = error.validation.map((item) => ({ ...item, loc: [partOf(item.loc[0]), ...item.loc] }));
  return new AppError(error.code, { detail: error.detail, ...(error.retryAfter !== undefined && { retryAfter: error.retryAfter }), validation });
}

/**
 * The ProblemDetail behind a GraphQL response's errors: the first catalogue error wins (its
 * extensions survive the gateway), its validation items located in the request by `where` (a
 * part, or the route's FieldPart). A variable the operation's input types refuse (a field the
 * route's schema does not list, an integer beyond 32 bits) is the request's fault, a 422 at the
 * part the route took its input from, never a 500. Anything else is an internal error, never
 * shown as is.
 */
export function errorFromGraphQL(errors: readonly GraphQLFormattedError[], where: RequestPart | FieldPart = "body"): AppError {
  const partOf: FieldPart = typeof where === "string" ? () => where : where;
  const catalogued = catalogueErrorOf(errors);
  if (catalogued) return locatedInRequest(catalogued, partOf);
  // in-process, subgraph errors arrive unformatted: the database away is the caller's 503 here too
  if (errors.some(isDatabaseUnavailable)) return databaseUnavailable();
  const refused = errors.map((error) => VARIABLE_REFUSED.exec(error.message)).filter((match) => match !== null);
  if (refused.length > 0 && refused.length === errors.length)
    return new AppError("GEN-422-001", {
      validation: refused.map(([, variable, reason]) => ({ type: "value_error", loc: [partOf()], msg: reason!, input: null, ctx: { variable: variable! } })),
    });
  return new AppError("GEN-500-001", { cause: new Error(errors.map((e) => e.message).join("; ")) });
}
