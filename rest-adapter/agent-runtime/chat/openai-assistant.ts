import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { toolResultText, type Assistant, type AssistantStep, type AssistantTool, type ChatHistoryMessage } from "./assistant.ts";

function systemPrompt(now: Date): string {
  return [
    "You are the assistant of a personal finance platform. Answer the user's questions about their own money using the tools, which read their accounts, transactions, budgets, insights and cards.",
    "Amounts are decimal strings, never floats: quote them as they are. Timestamps are epoch milliseconds; periods are [period_start, period_end). amount_usd and value_usd are US dollars.",
    `Now is ${now.toISOString()} (UTC). You can only read: you cannot move money or change anything, so say so if asked.`,
  ].join("\n");
}

/** The stored history as chat-completions messages: consecutive tool calls are one assistant turn. */
export function toChatMessages(history: readonly ChatHistoryMessage[], now: Date): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: systemPrompt(now) }];
  for (const message of history) {
    if (message.type === "user") messages.push({ role: "user", content: message.content ?? "" });
    else if (message.type === "assistant") messages.push({ role: "assistant", content: message.content ?? "" });
    else if (message.type === "tool_call") {
      const call = { id: message.tool_call_id!, type: "function" as const, function: { name: message.tool_name!, arguments: JSON.stringify(message.tool_arguments ?? {}) } };
      const last = messages.at(-1);
      if (last?.role === "assistant" && last.tool_calls) last.tool_calls.push(call);
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else messages.push({ role: "tool", tool_call_id: message.tool_call_id!, content: toolResultText(message) });
  }
  return messages;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Any OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): OpenAI,
 * or a local server (llama.cpp, vLLM, Ollama). The AgentTool operations are offered as functions
 * with their JSON Schemas; what the model calls runs with the user's own credential (chat-turn.ts).
 */
export class OpenAiCompatibleAssistant implements Assistant {
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(options: { baseUrl: string; apiKey: string; model: string }) {
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || "none", timeout: 60_000, maxRetries: 1 });
    this.model = options.model;
  }

  async next(history: readonly ChatHistoryMessage[], tools: readonly AssistantTool[], now: Date): Promise<AssistantStep> {
    const completion = await this.client.chat.completions.create({
      model: this.model,
      messages: toChatMessages(history, now),
      tools: tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
      tool_choice: "auto",
    });
    const message = completion.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [{ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) }] : []));
    if (calls.length > 0) return { kind: "tool_calls", calls };
    return { kind: "answer", content: message?.content?.trim() || "I have no answer to that." };
  }
}
