import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { firstHeader } from "../../lib/auth/credential-headers.ts";
import { appError } from "../../lib/errors/app-error.ts";
import type { AgentTool } from "./agent-tools.ts";
import { injectingCaller } from "./tool-caller.ts";

/** The MCP SDK loads on the first MCP request: most deployments never get one (start-up time and memory: issue 15). */
let mcpModules: Promise<[typeof import("./mcp-server.ts"), typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")]> | undefined;

export const MCP_PATH = "/mcp";

/** The agent token of an MCP request: `x-platform-token`, or `Authorization: Bearer` as MCP clients send it. */
function agentTokenOf(request: FastifyRequest): string | undefined {
  const header = firstHeader(request.headers, "x-platform-token");
  if (header !== undefined) return header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(firstHeader(request.headers, "authorization")?.trim() ?? "");
  return bearer?.[1];
}

/**
 * MCP over Streamable HTTP on the platform listener, stateless (a server per request, JSON
 * answers, no session to keep): each tool call is the AgentTool route's REST request, injected
 * into this listener with the caller's token and address, so it is authenticated, gated, limited,
 * validated and recorded exactly as the REST call would be. The token is checked on each call.
 */
export function registerMcp(app: FastifyInstance, tools: readonly AgentTool[]): void {
  app.post(MCP_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const token = agentTokenOf(request);
    if (!token) throw appError("USR-401-005", "Send the agent token as x-platform-token or Authorization: Bearer <token>.");
    const orgid = firstHeader(request.headers, "x-platform-orgid");
    mcpModules ??= Promise.all([import("./mcp-server.ts"), import("@modelcontextprotocol/sdk/server/streamableHttp.js")]);
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await mcpModules;
    const server = createMcpServer(tools, injectingCaller(app, { "x-platform-token": token, ...(orgid !== undefined && { "x-platform-orgid": orgid }) }, request));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // stateless: no server-initiated stream to open, no session to end
  const notAllowed = async () => {
    throw appError("GEN-405-001", "This MCP endpoint is stateless: POST JSON-RPC messages to it.");
  };
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
