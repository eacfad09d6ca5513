import type { ResponseMismatch } from "../../rest-adapter/route-kit/response-check.ts";

/**
 * Fails with every answer that differed from its route's OpenAPI entry: the test platform checks
 * each REST response of every e2e suite and calls this when it stops.
 */
export function assertDocumentedResponses(mismatches: readonly ResponseMismatch[]): void {
  if (mismatches.length === 0) return;
  const lines = mismatches.map((m) => `${m.operationId} ${m.method} ${m.url} → ${m.status}: ${m.problem}\n    body: ${JSON.stringify(m.body)?.slice(0, 400)}`);
  throw new Error(`${mismatches.length} response(s) differ from the OpenAPI document:\n  ${lines.join("\n  ")}`);
}
