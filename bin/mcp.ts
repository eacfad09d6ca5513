// `npm run --silent mcp`: the platform's MCP server (POST {PLATFORM_URL}/mcp) for desktop clients
// over stdio. It relays tools/list and tools/call to the platform with the agent token
// (PLATFORM_AGENT_TOKEN, and PLATFORM_ORGID for an organisation's environment), so the tools a
// token is shown (its scopes decide the writes), their argument checks and their answers are the
// platform's own. Stdout carries the protocol only; diagnostics go to stderr.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { stopWhenParentExits } from "../lib/parent-process.ts";
import { MCP_PATH } from "../rest-adapter/agent-runtime/mcp/mcp-http.ts";
import { MCP_SERVER_INFO } from "../rest-adapter/agent-runtime/mcp/mcp-server.ts";

const baseUrl = process.env.PLATFORM_URL ?? "http://localhost:8080";
const token = process.env.PLATFORM_AGENT_TOKEN;
const orgid = process.env.PLATFORM_ORGID;
if (!token) {
  console.error("PLATFORM_AGENT_TOKEN is required: issue one with POST /v0/agent/tokens.");
  process.exit(2);
}

// connected on the first request, and again after a failure: the desktop client may start before the platform
let platform: Promise<Client> | undefined;
function connected(): Promise<Client> {
  platform ??= (async () => {
    const client = new Client({ name: `${MCP_SERVER_INFO.name}-stdio`, version: MCP_SERVER_INFO.version });
    const headers = { "x-platform-token": token!, ...(orgid && { "x-platform-orgid": orgid }) };
    await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, baseUrl), { requestInit: { headers } }));
    return client;
  })().catch((error: unknown) => {
    platform = undefined;
    console.error(`Cannot reach the platform's MCP server at ${new URL(MCP_PATH, baseUrl).href}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  });
  return platform;
}

const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => (await connected()).listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, async (request) => (await connected()).callTool(request.params));
await server.connect(new StdioServerTransport());
// it ends when stdin closes; under `npm run mcp` also when npm is stopped while stdin stays open
stopWhenParentExits(() => process.exit(0));
