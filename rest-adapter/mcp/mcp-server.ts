import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolRequest, type AgentTool } from "./agent-tools.ts";
import type { ToolCaller } from "./tool-caller.ts";

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
