import type { AgentTool } from "../mcp/agent-tools.ts";
import type { ToolRequest } from "../../route-kit/tool-request.ts";

/** A money movement a proposed write would make or schedule, as the user reads it. */
function movements(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) movements(item, found);
  else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record["amount"] !== undefined && (record["from_wallet_id"] !== undefined || record["to_wallet_id"] !== undefined || record["wallet_id"] !== undefined)) {
      const asset = record["asset"] ?? record["asset_symbol"] ?? "";
      const from = record["from_wallet_id"] ?? record["wallet_id"];
      const to = record["to_wallet_id"];
      found.push(`${record["amount"]} ${asset}`.trim() + (from !== undefined ? ` from wallet ${from}` : "") + (to !== undefined ? ` to wallet ${to}` : ""));
    }
    for (const nested of Object.values(record)) movements(nested, found);
  }
  return found;
}

/**
 * What a proposed write does, for the user to read before confirming: the operation, the exact
 * request it will make, and for anything that moves money, what moves where.
 */
function proposalSummary(tool: Pick<AgentTool, "description">, request: ToolRequest): string {
  const operation = tool.description.split("\n")[0]!;
  const moves = movements(request.body);
  return [
    operation,
    `Request: ${request.method} ${request.url}${request.body ? ` ${JSON.stringify(request.body)}` : ""}`,
    ...(moves.length > 0 ? [`Moves money: ${moves.join("; ")}.`] : []),
  ].join("\n");
}

/**
 * A proposed action as stored (`ChatActionInput`): the exact request the write would make, which
 * is all a confirmation ever runs, and what it does in words. Chat and MCP propose through it.
 */
export function proposedAction(tool: Pick<AgentTool, "name" | "description">, request: ToolRequest, tool_call_id: string) {
  return { tool_call_id, tool_name: tool.name, method: request.method, path: request.url, body: request.body ?? null, summary: proposalSummary(tool, request) };
}
