import { errorDefinition, isErrorCode, type ErrorCode } from "./catalogue.ts";

/**
 * One FastAPI-style validation item (spec 2.9). On REST `loc` starts with body, query, path or
 * header; a domain function's names the field by its path in the operation's input (`["amount"]`,
 * `["trigger", "cron"]`, `[]` for the input as a whole), which the adapter puts under the part of
 * the request it took the field from (rest-adapter/route-kit/graphql-errors.ts).
 */
export interface ValidationItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

export interface AppErrorOptions {
  detail?: string;
  /** seconds, rendered as the Retry-After header */
  retryAfter?: number;
  /** the original failure, kept for logs and never sent */
  cause?: unknown;
  /** GEN-422-001 only: the items rendered as the ProblemDetail's `detail` array */
  validation?: ValidationItem[];
}

/** A catalogue error: what domain code throws. Status and title come from the catalogue. */
export class AppError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly retryAfter?: number;
  readonly validation?: ValidationItem[];

  constructor(
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    const definition = errorDefinition(code);
    super(options.detail ?? definition.detail, { cause: options.cause });
    this.name = "AppError";
    this.status = definition.status;
    this.title = definition.title;
    this.detail = options.detail ?? definition.detail;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
    if (options.validation !== undefined) this.validation = options.validation;
  }

  /** graphql-js copies an original error's `extensions` onto the GraphQL error it wraps it in */
  get extensions(): ErrorExtensions {
    return {
      code: this.code,
      error_code: this.code,
      status: this.status,
      title: this.title,
      detail: this.detail,
      ...(this.retryAfter !== undefined && { retry_after: this.retryAfter }),
      ...(this.validation !== undefined && { validation: this.validation }),
    };
  }
}

/** The Retry-After of a 503 whose error names none (lib/http.ts): retry a dependency that is away after a second. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * A 503 the server chose (load shedding, shutting down) rather than a failure: each listener
 * answers it in its own shape with Retry-After, and it is no error log line.
 */
export function isChosenRefusal(error: AppError): boolean {
  return error.code === "GEN-503-002" || error.code === "GEN-503-003";
}

export function appError(code: ErrorCode, detail?: string, options: Omit<AppErrorOptions, "detail"> = {}): AppError {
  return new AppError(code, { ...options, detail });
}

/** What crosses GraphQL: the catalogue code plus the caller-facing detail. */
export interface ErrorExtensions {
  code: string;
  error_code: ErrorCode;
  status: number;
  title: string;
  detail: string;
  retry_after?: number;
  validation?: ValidationItem[];
}

/** Reads a catalogue error back out of GraphQL error extensions (the gateway keeps them). */
export function fromExtensions(extensions: Record<string, unknown> | undefined): AppError | undefined {
  if (!extensions || !isErrorCode(extensions.error_code)) return undefined;
  const detail = typeof extensions.detail === "string" ? extensions.detail : undefined;
  const retryAfter = typeof extensions.retry_after === "number" ? extensions.retry_after : undefined;
  const validation = Array.isArray(extensions.validation) ? (extensions.validation as ValidationItem[]) : undefined;
  return new AppError(extensions.error_code, { detail, ...(retryAfter !== undefined && { retryAfter }), ...(validation && { validation }) });
}

/** The first catalogue error among a GraphQL response's errors (their extensions survive the gateway), if any. */
export function catalogueErrorOf(errors: readonly { extensions?: Record<string, unknown> | undefined }[]): AppError | undefined {
  for (const error of errors) {
    const known = fromExtensions(error.extensions);
    if (known) return known;
  }
  return undefined;
}

/** A domain-level validation failure, rendered exactly like the adapter's schema validation. */
export function validationError(loc: (string | number)[], msg: string, input: unknown, type = "value_error", ctx: Record<string, unknown> = {}): AppError {
  return new AppError("GEN-422-001", { validation: [{ type, loc, msg, input, ctx }] });
}
