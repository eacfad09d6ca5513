import type { Static, TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "../lib/errors/catalogue.ts";
import type { Links } from "./links.ts";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Security schemes: the platform's JWT and personal access token (spec 5.1.10), the identity
 * host's dashboard session and API key (Bearer, spec 5.2) and PINT JWT. An operation listing
 * several accepts any of them.
 */
export type SecurityScheme = "PlatformJwt" | "PlatformPat" | "DashboardSession" | "ApiKey" | "PintToken";

export interface RouteRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
}

export interface LinkContext<P, Q, B> extends RouteRequest<P, Q, B> {
  base_url: string;
  /** the other public URLs links may point at ({rpc_url}, {docs_url}) */
  rpc_url: string;
  docs_url: string;
}

export interface ResponseDoc {
  description: string;
  /** the body schema; ProblemDetail for error statuses is added by the document generator */
  schema?: TSchema;
}

/**
 * A REST route as data: method, path (OpenAPI style), schemas, the GraphQL operation it runs and
 * how the result becomes the HTTP answer. Validation, the OpenAPI document and the handler all
 * come from this one definition.
 */
export interface Route<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema> {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** empty: no credential needed */
  security: SecurityScheme[];
  /** also accepted without a credential (GET /v0/cli/config answers deployment defaults) */
  optionalSecurity?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * false: `body` documents the request only and the operation validates it itself, with its own
   * error codes (the PINT exchange answers PINT-400-001, not 422); the raw JSON body is passed on.
   */
  validateBody?: boolean;
  /**
   * The catalogue code for a body the HTTP layer refuses (not JSON, wrong content type, empty, too
   * large); unset: the generic 422/415/413. The PINT exchange keeps its own shape (PINT-400-001).
   */
  bodyError?: ErrorCode;
  /**
   * The catalogue code of a 429 on this route, whichever limit refused it (per address, per key,
   * failed verifications); unset: GEN-429-001. The PINT exchange answers PINT-429-001 (spec 7.3).
   */
  rateLimitError?: ErrorCode;
  /** bytes; unset: the listener's limit */
  bodyLimit?: number;
  /** normalises the raw query before validation (e.g. comma-separated lists) */
  prepareQuery?: (query: Record<string, unknown>) => Record<string, unknown>;
  /** the GraphQL operation, parsed once at start-up */
  operation: string;
  variables?: (request: RouteRequest<Static<P>, Static<Q>, Static<B>>) => Record<string, unknown>;
  /** picks the response body out of the operation's data */
  result: (data: any, request: RouteRequest<Static<P>, Static<Q>, Static<B>>) => unknown;
  status?: number | ((data: any) => number);
  links?: (body: any, context: LinkContext<Static<P>, Static<Q>, Static<B>>) => Links;
  /** documented success responses by status */
  responses: Record<number, ResponseDoc>;
  /** documented error statuses (ProblemDetail bodies) */
  errors?: number[];
}

/** Routes under this tag (sandbox helpers) are served and documented only in sandbox mode (SANDBOX). */
export const SANDBOX_TAG = "Sandbox";

/** Every listener counts requests against its rate limits (429, see RateLimitedBy), except on /health, which load balancers poll. */
export function isRateLimited(route: Pick<Route, "path">): boolean {
  return route.path !== "/health";
}

/** The error statuses a route can answer: those it lists, and 429 wherever requests are counted. */
export function errorStatuses(route: Pick<Route, "path" | "errors">): number[] {
  const statuses = new Set(route.errors ?? []);
  if (isRateLimited(route)) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** Keeps each route's request types tied to its own schemas. */
export function defineRoute<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema>(route: Route<P, Q, B>): Route {
  return route as unknown as Route;
}
