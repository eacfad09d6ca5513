import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { toolRequest, type AgentTool, type ToolRequest } from "./agent-tools.ts";

/** Runs a tool's REST request with the caller's credential: in this process (MCP over HTTP, chat) or over HTTP (stdio). */
export type ToolCaller = (request: ToolRequest) => Promise<{ status: number; body: unknown }>;

/**
 * Tool requests injected into this listener with `headers` (the caller's credential) and the
 * address and trace id of the request `from`, so they are authenticated, gated, limited and
 * recorded as the same REST call from that client would be.
 */
export function injectingCaller(app: FastifyInstance, headers: Record<string, string>, from: FastifyRequest): ToolCaller {
  return async ({ method, url, body }) => {
    const answer = await app.inject({
      method,
      url,
      remoteAddress: from.ip,
      headers: { ...headers, "x-request-id": from.id, ...(body && { "content-type": "application/json" }) },
      ...(body && { payload: JSON.stringify(body) }),
    });
    return { status: answer.statusCode, body: answer.body ? answer.json() : null };
  };
}

export const MCP_SERVER_INFO = { name: "platform-agent-tools", version: "0.1.0" };

/**
 * An MCP server offering the AgentTool operations as tools. A call answers the REST body; a
 * non-2xx answer (a scope refusal, a missing object, a revoked token) is a tool error with the
 * ProblemDetail, so the model reads why.
 */
export function createMcpServer(tools: readonly AgentTool[], call: ToolCaller): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema, route }) => ({ name, description, inputSchema, annotations: { readOnlyHint: route.method === "GET", openWorldHint: false } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: `No tool named ${request.params.name}.` }] };
    const { status, body } = await call(toolRequest(tool, request.params.arguments ?? {}));
    const text = JSON.stringify(body);
    if (status >= 400) return { isError: true, content: [{ type: "text", text }] };
    return { content: [{ type: "text", text }], ...(body !== null && typeof body === "object" && !Array.isArray(body) && { structuredContent: body as Record<string, unknown> }) };
  });
  return server;
}
