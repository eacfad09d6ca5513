/** A message of the history as the assistant reads it (the stored chat message). */
export interface ChatHistoryMessage {
  type: "user" | "assistant" | "tool_call" | "tool_result";
  content: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  tool_arguments: Record<string, unknown> | null;
  /** `{ status, body }`: the REST answer of the tool's route */
  tool_result: Record<string, unknown> | null;
}

/** A tool result longer than this reaches the model cut, so one big page cannot fill its context. */
export const MAX_TOOL_RESULT_CHARS = 20_000;

/** A tool result as the model reads it: its JSON, cut at MAX_TOOL_RESULT_CHARS. */
export function toolResultText(message: ChatHistoryMessage): string {
  return JSON.stringify(message.tool_result).slice(0, MAX_TOOL_RESULT_CHARS);
}

/** A tool the assistant may call: an AgentTool operation (read-only), with its JSON Schema. */
export interface AssistantTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** What the assistant does next: call tools (their results come back in the history), or answer. */
export type AssistantStep = { kind: "tool_calls"; calls: ToolCall[] } | { kind: "answer"; content: string };

/**
 * The model behind chat. It sees the session's history and the AgentTool operations, and decides
 * one step at a time; the chat turn (chat-turn.ts) runs the tools with the user's own credential
 * and stores every step. Implementations: the built-in offline one (the default) and any
 * OpenAI-compatible chat-completions endpoint.
 */
export interface Assistant {
  next(history: readonly ChatHistoryMessage[], tools: readonly AssistantTool[], now: Date): Promise<AssistantStep>;
}
