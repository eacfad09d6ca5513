import { describe, expect, it } from "vitest";
import { categoryOf, formatUsd, OfflineAssistant, periodOf } from "../../rest-adapter/agent-runtime/chat/offline-assistant.ts";

const NOW = new Date(Date.UTC(2026, 10, 23, 15, 30)); // Monday 23 November 2026, UTC

describe("the offline assistant's reading of a question", () => {
  it("takes calendar periods in UTC, this month by default", () => {
    expect(periodOf("how much did I spend on groceries?", NOW)).toEqual({ start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1), label: "this month" });
    expect(periodOf("and last month?", NOW)).toMatchObject({ start: Date.UTC(2026, 9, 1), end: Date.UTC(2026, 10, 1) });
    expect(periodOf("spent today", NOW)).toMatchObject({ start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 24) });
    expect(periodOf("this week", NOW)).toMatchObject({ start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 30) });
    expect(periodOf("in the last 7 days", NOW)).toMatchObject({ start: Date.UTC(2026, 10, 17), end: Date.UTC(2026, 10, 24), label: "in the last 7 days" });
    expect(periodOf("this year", NOW)).toMatchObject({ start: Date.UTC(2026, 0, 1), end: Date.UTC(2027, 0, 1) });
    expect(periodOf("last month", new Date(Date.UTC(2026, 0, 10)))).toMatchObject({ start: Date.UTC(2025, 11, 1), end: Date.UTC(2026, 0, 1) });
  });

  it("finds the budget category in everyday words", () => {
    expect(categoryOf("How much did I spend on groceries this month?")).toBe("groceries");
    expect(categoryOf("eating out")).toBe("restaurants");
    expect(categoryOf("my uber rides")).toBe("transportation");
    expect(categoryOf("how much did I spend?")).toBeUndefined();
  });

  it("writes dollars from decimal strings without floats", () => {
    expect(formatUsd("1234.5")).toBe("$1,234.50");
    expect(formatUsd("0.1")).toBe("$0.10");
    expect(formatUsd("1000000")).toBe("$1,000,000.00");
    expect(formatUsd("-3.456")).toBe("-$3.45");
  });

  it("answers what it cannot look up with what it can, calling no tool", async () => {
    const step = await new OfflineAssistant().next([{ type: "user", content: "write me a poem", tool_call_id: null, tool_name: null, tool_arguments: null, tool_result: null }], [], NOW);
    expect(step).toMatchObject({ kind: "answer", content: expect.stringContaining("groceries this month") });
  });

  it("asks for the feed, then answers from the tool's result, and passes a refusal on", async () => {
    const assistant = new OfflineAssistant();
    const user = { type: "user" as const, content: "how much did I spend on travel last month?", tool_call_id: null, tool_name: null, tool_arguments: null, tool_result: null };
    const first = await assistant.next([user], [], NOW);
    expect(first).toEqual({ kind: "tool_calls", calls: [{ id: "call_0_spending", name: "list_transactions", arguments: { direction: "out", category: "travel", period_start: Date.UTC(2026, 9, 1), period_end: Date.UTC(2026, 10, 1), meta: true, limit: 1 } }] });
    const result = (tool_result: Record<string, unknown>) => ({ type: "tool_result" as const, content: null, tool_call_id: "call_0_spending", tool_name: "list_transactions", tool_arguments: null, tool_result });
    expect(await assistant.next([user, result({ status: 200, body: { meta: { transaction_count: 1, cashflow: { gross_out: "310" } } } })], [], NOW)).toEqual({
      kind: "answer",
      content: "You spent $310.00 on travel last month (UTC), over 1 transaction.",
    });
    expect(await assistant.next([user, result({ status: 403, body: { detail: "This operation needs an agent token with the scope read:transactions." } })], [], NOW)).toMatchObject({
      kind: "answer",
      content: expect.stringContaining("I could not read that"),
    });
  });
});
