import type { FastifyInstance } from "fastify";
import { isDatabaseUnavailable } from "../db/prisma-errors.ts";
import { AppError, appError, isChosenRefusal } from "../errors/app-error.ts";
import { databaseUnavailable } from "./mask-error.ts";

/**
 * Errors raised outside Apollo on a GraphQL listener (load shedding, an unreadable body, a bug)
 * in the GraphQL response shape: `{ errors: [{ message, extensions }] }` with the HTTP status,
 * Retry-After when there is one, and nothing of an internal error but its code; the database away
 * or too slow is the caller's 503, as inside GraphQL (mask-error.ts).
 */
export function answerGraphqlErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const statusCode = (error as { statusCode?: number }).statusCode;
    const refused =
      error instanceof AppError
        ? error
        : statusCode !== undefined && statusCode >= 400 && statusCode < 500
          ? appError(statusCode === 413 ? "GEN-413-001" : statusCode === 415 ? "GEN-415-001" : "GEN-400-001", (error as Error).message)
          : isDatabaseUnavailable(error)
            ? databaseUnavailable()
            : new AppError("GEN-500-001", { cause: error });
    if (refused.status >= 500 && !isChosenRefusal(refused)) request.log.error({ err: refused.cause ?? error, trace_id: request.id }, "request failed");
    if (refused.retryAfter !== undefined) reply.header("retry-after", String(refused.retryAfter));
    return reply.code(refused.status).send({ errors: [{ message: refused.detail, extensions: refused.extensions }] });
  });
}
