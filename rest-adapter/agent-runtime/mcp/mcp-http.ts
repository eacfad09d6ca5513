import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { firstHeader } from "../../../lib/auth/credential-headers.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { AgentTokenScope } from "../../../lib/vocabulary/agents.ts";
import type { GatewayClient } from "../../route-kit/gateway-client.ts";
import { errorFromGraphQL } from "../../route-kit/graphql-errors.ts";
import { renderProblem } from "../../route-kit/problem.ts";
import { proposedAction } from "../chat/proposals.ts";
import { chatActionLinks } from "../../routes/chat.ts";
import { CHAT_ACTION_FIELDS } from "../../resources/resources.generated.ts";
import type { AgentTool } from "./agent-tools.ts";
import type { ToolRequest } from "../../route-kit/tool-request.ts";
import { injectingCaller } from "../../route-kit/in-listener.ts";

/** The MCP SDK loads on the first MCP request: most deployments never get one (start-up time and memory: issue 15). */
let mcpModules: Promise<[typeof import("./mcp-server.ts"), typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")]> | undefined;

export const MCP_PATH = "/mcp";

export interface McpOptions {
  /** the AgentTool reads and the AgentAction writes (agentTools, agentActions) */
  tools: readonly AgentTool[];
  gateway: GatewayClient;
  /** {base_url}, for the problems of refused arguments */
  baseUrl: string;
}

/** The agent token of an MCP request: `x-platform-token`, or `Authorization: Bearer` as MCP clients send it. */
function agentTokenOf(request: FastifyRequest): string | undefined {
  const header = firstHeader(request.headers, "x-platform-token");
  if (header !== undefined) return header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(firstHeader(request.headers, "authorization")?.trim() ?? "");
  return bearer?.[1];
}

/**
 * MCP over Streamable HTTP on the platform listener, stateless (a server per request, JSON
 * answers, no session to keep): each tool call is the route's REST request, injected into this
 * listener with the caller's token and address, so it is authenticated, gated, limited,
 * validated and recorded exactly as the REST call would be. The token is checked on each call;
 * listing the tools asks the gateway for its scopes (`current_agent_token`, recorded as a use
 * named McpToolList), so the writes shown are those it may make.
 */
export function registerMcp(app: FastifyInstance, options: McpOptions): void {
  const currentToken = options.gateway.prepare("query McpToolList { current_agent_token { id scopes } }");
  const proposeActions = options.gateway.prepare(
    `mutation McpProposeActions($token_id: ID!, $actions: [ChatActionInput!]!) { actions: propose_agent_actions(token_id: $token_id, actions: $actions) { ${CHAT_ACTION_FIELDS} } }`,
  );
  app.post(MCP_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const token = agentTokenOf(request);
    if (!token) throw appError("USR-401-005", "Send the agent token as x-platform-token or Authorization: Bearer <token>.");
    const orgid = firstHeader(request.headers, "x-platform-orgid");
    const credentials = { "x-platform-token": token, ...(orgid !== undefined && { "x-platform-orgid": orgid }) };
    let current: Promise<{ id: string; scopes: AgentTokenScope[] } | null> | undefined;
    const currentAgentToken = () =>
      (current ??= options.gateway
        .execute({ operation: currentToken, variables: {}, headers: credentials, credentials: "required", trace_id: request.id, client_address: request.ip, user_agent: request.headers["user-agent"] })
        .then((result) => {
          if (result.errors?.length) throw errorFromGraphQL(result.errors, "query");
          return (result.data as { current_agent_token: { id: string; scopes: AgentTokenScope[] } | null }).current_agent_token;
        }));
    const scopes = async (): Promise<readonly AgentTokenScope[]> => (await currentAgentToken())?.scopes ?? [];
    const propose = async (tool: AgentTool, made: ToolRequest): Promise<Record<string, unknown>> => {
      const token = await currentAgentToken();
      if (!token) throw appError("USR-401-005");
      const stored = await options.gateway.execute({ operation: proposeActions, variables: { token_id: token.id, actions: [proposedAction(tool, made, `mcp_${request.id}`)] }, headers: {}, credentials: "internal", trace_id: request.id, client_address: request.ip });
      if (stored.errors?.length) throw errorFromGraphQL(stored.errors);
      const [proposed] = (stored.data as { actions: { id: string; session_id: string; status: string }[] }).actions;
      return {
        ...proposed!,
        detail: `Not run: this token's scopes do not cover ${tool.scope}, so the change is proposed to the user, who confirms or declines it in the platform. Tell the user it waits for them.`,
        _links: chatActionLinks(options.baseUrl, proposed!),
      };
    };
    const problem = (error: Parameters<typeof renderProblem>[0], tool: AgentTool) =>
      renderProblem(error, { instance: tool.route.path, trace_id: request.id, base_url: options.baseUrl, docs_url: options.baseUrl, style: "platform" });
    mcpModules ??= Promise.all([import("./mcp-server.ts"), import("@modelcontextprotocol/sdk/server/streamableHttp.js")]);
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await mcpModules;
    const server = createMcpServer(options.tools, injectingCaller(app, credentials, request), { scopes, problem, propose });
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
