// `npm run --silent mcp`: the AgentTool operations as an MCP server over stdio, for desktop
// clients. Each tool call is the REST request to the platform (PLATFORM_URL) with the agent token
// (PLATFORM_AGENT_TOKEN, and PLATFORM_ORGID for an organisation's environment). Stdout carries
// the protocol only; diagnostics go to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { agentTools } from "../rest-adapter/mcp/agent-tools.ts";
import { createMcpServer } from "../rest-adapter/mcp/mcp-server.ts";
import { platformRoutes } from "../rest-adapter/platform.ts";

const baseUrl = process.env.PLATFORM_URL ?? "http://localhost:8080";
const token = process.env.PLATFORM_AGENT_TOKEN;
const orgid = process.env.PLATFORM_ORGID;
if (!token) {
  console.error("PLATFORM_AGENT_TOKEN is required: issue one with POST /v0/agent/tokens.");
  process.exit(2);
}

const server = createMcpServer(agentTools(platformRoutes), async ({ method, url, body }) => {
  const response = await fetch(new URL(url, baseUrl), {
    method,
    headers: { "x-platform-token": token, ...(orgid && { "x-platform-orgid": orgid }), ...(body && { "content-type": "application/json" }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
});
await server.connect(new StdioServerTransport());
