import { appError, type AppError } from "../../lib/errors/app-error.ts";
import type { ErrorCode } from "../../lib/errors/catalogue.ts";

interface FastifyBodyError {
  code?: string;
  message: string;
}

/**
 * A request body the HTTP layer refused before the route ran (not JSON by lib/json-body.ts's
 * rules, not `application/json` in UTF-8, empty, larger than the limit), told in the route's own
 * error code: a route with `bodyError` (the PINT exchange: PINT-400-001) answers in its own shape
 * whichever layer found the fault.
 * Undefined for anything that is not such a refusal.
 */
export function routeBodyError(code: ErrorCode, error: FastifyBodyError): AppError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return appError(code, "The body must be sent as application/json, in UTF-8.");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return appError(code, "The body is larger than this operation accepts.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return appError(code, "The body is empty; it must be a JSON object.");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return appError(code, "The body's length does not match its Content-Length.");
    // syntax errors and what lib/json-body.ts refuses (a duplicate key, too deep, a byte order mark, __proto__)
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return appError(code, `The body is not valid JSON (${error.message}); it must be a JSON object.`);
  }
  return undefined;
}
