import type { FastifyInstance, FastifyRequest } from "fastify";
import type { HttpMethod } from "./route.ts";

/** A request to another route of the same listener (an MCP or chat tool call, a widget's data request). */
export interface InjectedRequest {
  method: HttpMethod;
  url: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Its answer: `body` parsed (null when empty), and as it came, to pass on. */
export interface InjectedAnswer {
  status: number;
  body: unknown;
  type: string | undefined;
  payload: string;
}

export type InListenerCaller = (request: InjectedRequest) => Promise<InjectedAnswer>;

/**
 * Requests injected into this listener with `credentials` (the caller's credential headers; a
 * repeated one is left out) and the address and trace id of the request `from`, so they are
 * authenticated, gated, limited and recorded as the same REST call from that client would be.
 */
export function injectingCaller(app: FastifyInstance, credentials: Record<string, string | string[] | undefined>, from: FastifyRequest): InListenerCaller {
  const headers = Object.fromEntries(Object.entries(credentials).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return async ({ method, url, body, headers: own }) => {
    const answer = await app.inject({
      method,
      url,
      remoteAddress: from.ip,
      // the request's own headers (a write's Idempotency-Key) never replace the caller's credential
      headers: { ...own, ...headers, "x-request-id": from.id, ...(body && { "content-type": "application/json" }) },
      ...(body && { payload: JSON.stringify(body) }),
    });
    const type = answer.headers["content-type"];
    return { status: answer.statusCode, body: answer.body ? answer.json() : null, type: typeof type === "string" ? type : undefined, payload: answer.body };
  };
}
