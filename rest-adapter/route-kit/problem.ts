import { AppError, type ValidationItem } from "../../lib/errors/app-error.ts";
import { errorDefinition, errorTypeName } from "../../lib/errors/catalogue.ts";
import { isDatabaseUnavailable } from "../../lib/db/prisma-errors.ts";
import { databaseUnavailable } from "../../lib/graphql/mask-error.ts";

/** RFC 7807 problem detail of spec 2.9. `detail` is the item list on validation errors. */
export interface ProblemDetail {
  type: string;
  title: string;
  status: number;
  detail: string | ValidationItem[];
  instance: string;
  error_code: string;
  trace_id: string | null;
  documentation?: string;
}

export interface ProblemContext {
  instance: string;
  trace_id: string;
  base_url: string;
  docs_url: string;
  /** the listener's error style: generic errors on the identity host look like its own errors */
  style: "platform" | "identity";
}

/**
 * One renderer for every error: platform `type` is `{base_url}/errors/<code lower case>`;
 * identity-service errors, and every error on the identity host, use
 * `{docs_url}/errors/<type name>` and carry `documentation` (spec 7.1).
 */
export function renderProblem(error: AppError, context: ProblemContext): ProblemDetail {
  const definition = errorDefinition(error.code);
  const typeName = (definition.type_name || context.style === "identity") ? errorTypeName(error.code) : undefined;
  const problem: ProblemDetail = {
    type: typeName ? `${context.docs_url}/errors/${typeName}` : `${context.base_url}/errors/${error.code.toLowerCase()}`,
    title: error.title,
    status: error.status,
    detail: error.validation ?? error.detail,
    instance: context.instance,
    error_code: error.code,
    trace_id: context.trace_id,
  };
  if (typeName) problem.documentation = `${context.docs_url}/errors/${error.code}`;
  return problem;
}

/**
 * Anything that is not a catalogue error is an internal error, its details kept in the log; but a
 * database away or too slow, wherever it surfaced (not only inside GraphQL), is the caller's 503.
 */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return isDatabaseUnavailable(error) ? databaseUnavailable() : new AppError("GEN-500-001", { cause: error });
}
