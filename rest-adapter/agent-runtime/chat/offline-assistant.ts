import { SPENDING_CATEGORIES, type SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import type { Assistant, AssistantStep, ChatHistoryMessage, ToolCall } from "./assistant.ts";

/** A period the offline assistant understands, in UTC: [start, end) in epoch ms, and how to say it. */
export interface Period {
  start: number;
  end: number;
  label: string;
}

const DAY = 86_400_000;

/** "this month" (the default), "last month", "this week", "today", "this year", "last N days". */
export function periodOf(text: string, now: Date): Period {
  const t = text.toLowerCase();
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = Date.UTC(y, m, now.getUTCDate());
  const days = /(?:last|past)\s+(\d{1,3})\s+days?/.exec(t);
  if (days) return { start: today - (Number(days[1]) - 1) * DAY, end: today + DAY, label: `in the last ${days[1]} days` };
  if (/\blast month\b/.test(t)) return { start: Date.UTC(y, m - 1, 1), end: Date.UTC(y, m, 1), label: "last month" };
  if (/\btoday\b/.test(t)) return { start: today, end: today + DAY, label: "today" };
  if (/\bthis week\b/.test(t)) {
    const monday = today - ((now.getUTCDay() + 6) % 7) * DAY;
    return { start: monday, end: monday + 7 * DAY, label: "this week" };
  }
  if (/\b(this|current) year\b/.test(t)) return { start: Date.UTC(y, 0, 1), end: Date.UTC(y + 1, 0, 1), label: "this year" };
  return { start: Date.UTC(y, m, 1), end: Date.UTC(y, m + 1, 1), label: "this month" };
}

const CATEGORY_WORDS: Record<SpendingCategory, RegExp> = {
  restaurants: /restaurant|eating out|dining|food out|takeaway/,
  groceries: /grocer|supermarket/,
  transportation: /transport|taxi|uber|fuel|petrol|gas station|train|bus\b/,
  entertainment: /entertainment|movies?|cinema|streaming|games?/,
  shopping: /shopping|clothes/,
  utilities: /utilit|electric|water bill|internet|phone bill/,
  travel: /travel|flights?|hotels?/,
  health: /health|doctor|pharmacy|medical/,
  other: /\bother\b/,
};

export function categoryOf(text: string): SpendingCategory | undefined {
  const t = text.toLowerCase();
  return SPENDING_CATEGORIES.find((category) => CATEGORY_WORDS[category].test(t));
}

/** "1234.5" → "$1,234.50", without floats. */
export function formatUsd(amount: string): string {
  const negative = amount.startsWith("-");
  const [whole = "0", fraction = ""] = amount.replace("-", "").split(".");
  const cents = (fraction + "00").slice(0, 2);
  return `${negative ? "-" : ""}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

type Intent = "spending" | "biggest" | "balances" | "budgets" | "insights" | "help";

function intentOf(text: string): Intent {
  const t = text.toLowerCase();
  if (/biggest|largest|top \d*\s*(expense|purchase|payment)|most expensive/.test(t)) return "biggest";
  if (/budget/.test(t)) return "budgets";
  if (/insight|tips?\b|advice|should i know|anything unusual/.test(t)) return "insights";
  if (/spen[dt]|spending|cost me|paid for/.test(t)) return "spending";
  if (/balance|how much (money )?(do i|have i)|net worth|holdings|my accounts|my wallets/.test(t)) return "balances";
  return "help";
}

const HELP =
  "I can answer from your own data: your balances (\"what are my balances?\"), what you spent in a category over a period (\"how much did I spend on groceries this month?\"), your biggest expenses (\"what were my biggest expenses last month?\"), how your budgets stand, and your recent insights.";

type Body = Record<string, any>;

/**
 * The built-in assistant (the default; no model, no network): it recognises the common questions
 * and answers them by calling the same AgentTool operations an agent would, one step at a time,
 * so every answer's tool calls are in the history. Periods are calendar periods in UTC.
 */
export class OfflineAssistant implements Assistant {
  async next(history: readonly ChatHistoryMessage[], _tools: unknown, now: Date): Promise<AssistantStep> {
    const lastUser = history.findLastIndex((m) => m.type === "user");
    const question = history[lastUser]?.content ?? "";
    const results = history.slice(lastUser + 1).filter((m) => m.type === "tool_result");
    const intent = intentOf(question);
    if (intent === "help") return { kind: "answer", content: HELP };
    if (results.length === 0) return { kind: "tool_calls", calls: [this.callFor(intent, question, now, lastUser)] };
    const result = results[results.length - 1]!.tool_result as { status: number; body: Body };
    if (result.status >= 400) return { kind: "answer", content: `I could not read that: ${result.body?.detail ?? `the request failed (${result.status})`}.` };
    return { kind: "answer", content: this.answer(intent, question, result.body, now) };
  }

  private callFor(intent: Exclude<Intent, "help">, question: string, now: Date, turn: number): ToolCall {
    const id = `call_${turn}_${intent}`;
    const period = periodOf(question, now);
    switch (intent) {
      case "spending": {
        const category = categoryOf(question);
        return { id, name: "list_transactions", arguments: { direction: "out", ...(category && { category }), period_start: period.start, period_end: period.end, meta: true, limit: 1 } };
      }
      case "biggest":
        return { id, name: "list_transactions", arguments: { direction: "out", period_start: period.start, period_end: period.end, limit: 200 } };
      case "balances":
        return { id, name: "list_accounts", arguments: {} };
      case "budgets":
        return { id, name: "list_budgets", arguments: {} };
      case "insights":
        return { id, name: "list_insights", arguments: { limit: 5 } };
    }
  }

  private answer(intent: Exclude<Intent, "help">, question: string, body: Body, now: Date): string {
    const period = periodOf(question, now);
    switch (intent) {
      case "spending": {
        const category = categoryOf(question);
        const count = body.meta?.transaction_count ?? 0;
        const what = category ? `on ${category}` : "in total";
        if (count === 0) return `You spent nothing ${what} ${period.label} (UTC).`;
        return `You spent ${formatUsd(body.meta.cashflow.gross_out)} ${what} ${period.label} (UTC), over ${count} transaction${count === 1 ? "" : "s"}.`;
      }
      case "biggest": {
        const items = [...((body.items ?? []) as Body[])].filter((t) => t.amount_usd !== null).sort((a, b) => Number(b.amount_usd) - Number(a.amount_usd)).slice(0, 5);
        if (items.length === 0) return `You had no priced expenses ${period.label} (UTC).`;
        const lines = items.map((t, i) => `${i + 1}. ${formatUsd(t.amount_usd)}: ${t.merchant?.name ?? t.description ?? t.type} (${new Date(t.timestamp).toISOString().slice(0, 10)})`);
        return [`Your biggest expenses ${period.label} (UTC):`, ...lines].join("\n");
      }
      case "balances": {
        const accounts = (body.items ?? []) as Body[];
        const lines = accounts.filter((a) => a.source !== "card").map((a) => `- ${a.name ?? a.source_id}: ${formatUsd(a.total_value_usd)}`);
        return [`Your accounts are worth ${formatUsd(body.total_value_usd ?? "0")} in total.`, ...lines].join("\n");
      }
      case "budgets": {
        const budgets = (body.items ?? []) as Body[];
        if (budgets.length === 0) return "You have no budgets yet.";
        return budgets.map((b) => `- ${b.category}: ${b.spent} of ${b.amount} ${b.currency ?? ""} spent (${b.percentage_used}%), ${b.remaining} left this ${b.period}`.replace(/\s+\(/, " (")).join("\n");
      }
      case "insights": {
        const insights = (body.items ?? []) as Body[];
        if (insights.length === 0) return "Nothing stands out in your recent activity.";
        return insights.map((i) => `- ${i.title}`).join("\n");
      }
    }
  }
}
