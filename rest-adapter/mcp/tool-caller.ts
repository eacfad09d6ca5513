// Apart from the MCP server, so the chat assistant calls tools without loading the MCP SDK.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ToolRequest } from "./agent-tools.ts";

/** Runs a tool's REST request with the caller's credential: in this process (MCP over HTTP, chat) or over HTTP (stdio). */
export type ToolCaller = (request: ToolRequest) => Promise<{ status: number; body: unknown }>;

/**
 * Tool requests injected into this listener with `credentials` (the caller's credential headers; a repeated one is left out) and the
 * address and trace id of the request `from`, so they are authenticated, gated, limited and
 * recorded as the same REST call from that client would be.
 */
export function injectingCaller(app: FastifyInstance, credentials: Record<string, string | string[] | undefined>, from: FastifyRequest): ToolCaller {
  const headers = Object.fromEntries(Object.entries(credentials).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return async ({ method, url, body, headers: own }) => {
    const answer = await app.inject({
      method,
      url,
      remoteAddress: from.ip,
      // the tool request's own headers (a write's Idempotency-Key) never replace the caller's credential
      headers: { ...own, ...headers, "x-request-id": from.id, ...(body && { "content-type": "application/json" }) },
      ...(body && { payload: JSON.stringify(body) }),
    });
    return { status: answer.statusCode, body: answer.body ? answer.json() : null };
  };
}
