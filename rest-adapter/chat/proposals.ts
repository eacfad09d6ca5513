import type { AgentTool, ToolRequest } from "../mcp/agent-tools.ts";

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
export function proposalSummary(tool: Pick<AgentTool, "description">, request: ToolRequest): string {
  const operation = tool.description.split("\n")[0]!;
  const moves = movements(request.body);
  return [
    operation,
    `Request: ${request.method} ${request.url}${request.body ? ` ${JSON.stringify(request.body)}` : ""}`,
    ...(moves.length > 0 ? [`Moves money: ${moves.join("; ")}.`] : []),
  ].join("\n");
}
