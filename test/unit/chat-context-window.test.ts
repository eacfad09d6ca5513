import { describe, expect, it } from "vitest";
import { MAX_TOOL_RESULT_CHARS, type ChatHistoryMessage } from "../../rest-adapter/agent-runtime/chat/assistant.ts";
import { contextWindow } from "../../rest-adapter/agent-runtime/chat/context-window.ts";

const none = { content: null, tool_call_id: null, tool_name: null, tool_arguments: null, tool_result: null };
const user = (content: string): ChatHistoryMessage => ({ ...none, type: "user", content });
const answer = (content: string): ChatHistoryMessage => ({ ...none, type: "assistant", content });
const call = (id: string): ChatHistoryMessage => ({ ...none, type: "tool_call", tool_call_id: id, tool_name: "list_transactions", tool_arguments: { limit: 1 } });
const result = (id: string, body: string): ChatHistoryMessage => ({ ...none, type: "tool_result", tool_call_id: id, tool_name: "list_transactions", tool_result: { status: 200, body } });

/** One earlier turn of `size` characters: a question, a tool call with its result, an answer. */
const turn = (n: number, size: number) => [user("q".repeat(size / 2)), call(`c${n}`), result(`c${n}`, ""), answer("a".repeat(size / 2))];

describe("the assistant's context window (rest-adapter/agent-runtime/chat/context-window.ts)", () => {
  it("is the whole history while it fits", () => {
    const history = [...turn(1, 100), ...turn(2, 100), user("now?")];
    expect(contextWindow(history, 1000)).toEqual(history);
  });

  it("drops the oldest turns first and starts at a user message, so no tool result loses its call", () => {
    const history = [...turn(1, 400), ...turn(2, 400), ...turn(3, 400), user("now?"), call("c4")];
    // each earlier turn is some 470 characters as the model reads it: the current turn and one more fit in 700
    const window = contextWindow(history, 700);
    expect(window).toEqual(history.slice(8));
    expect(window.filter((m) => m.type === "tool_result").every((r) => window.some((m) => m.type === "tool_call" && m.tool_call_id === r.tool_call_id))).toBe(true);
  });

  it("keeps the current turn whole, even past the budget", () => {
    const big = "x".repeat(5000);
    const history = [...turn(1, 100), user("now?"), call("c2"), result("c2", big)];
    expect(contextWindow(history, 1000)).toEqual(history.slice(4));
  });

  it("counts a tool result as the model reads it: cut at MAX_TOOL_RESULT_CHARS", () => {
    const huge = [user("before"), call("c1"), result("c1", "y".repeat(MAX_TOOL_RESULT_CHARS * 5)), answer("done")];
    const history = [...huge, user("now?")];
    expect(contextWindow(history, MAX_TOOL_RESULT_CHARS + 500)).toEqual(history);
  });

  it("drops a leading fragment of a turn (the read's first messages can start mid-turn)", () => {
    const history = [result("c0", "orphan"), answer("old answer"), ...turn(1, 100), user("now?")];
    expect(contextWindow(history, 10_000)).toEqual(history.slice(2));
  });
});
