import { toolResultText, type ChatHistoryMessage } from "./assistant.ts";

/** How many of a session's latest messages a turn reads, at most, before it fits them to the budget. */
export const CHAT_CONTEXT_MESSAGES = 200;

/**
 * Characters of earlier history the assistant sees (about 12,000 tokens): a long session would
 * otherwise outgrow the model's context, and every turn of it would fail.
 */
export const CHAT_CONTEXT_CHARS = 48_000;

/** A message's size as the model reads it: its text, or its call's arguments, or its result as cut. */
function charsOf(message: ChatHistoryMessage): number {
  if (message.type === "tool_call") return (message.tool_name?.length ?? 0) + JSON.stringify(message.tool_arguments ?? {}).length;
  if (message.type === "tool_result") return toolResultText(message).length;
  return message.content?.length ?? 0;
}

/**
 * What the assistant sees of a session: the current turn (from its user message on) whole, and
 * before it as many earlier turns as fit in `budget` characters with it. The window starts at a
 * user message, so no tool result is ever cut from its call.
 */
export function contextWindow(history: readonly ChatHistoryMessage[], budget: number = CHAT_CONTEXT_CHARS): readonly ChatHistoryMessage[] {
  let start = Math.max(0, history.findLastIndex((message) => message.type === "user"));
  let chars = history.slice(start).reduce((total, message) => total + charsOf(message), 0);
  for (let i = start - 1; i >= 0; i--) {
    chars += charsOf(history[i]!);
    if (chars > budget) break;
    if (history[i]!.type === "user") start = i;
  }
  return start === 0 ? history : history.slice(start);
}
