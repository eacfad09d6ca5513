import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { AgentsDb } from "../../subgraphs/agents/db.ts";
import { listChatActions, proposeChatActions } from "../../subgraphs/agents/chat/chat-actions.ts";
import { openAgentsDb } from "../support/agents-db.ts";

// The actions of one turn are stored in the same millisecond; the session's list must still show
// them in the order the model called the tools (the user confirms them in that order).
let db: AgentsDb;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openAgentsDb());
});
afterAll(() => close());

it("lists one turn's proposals in the model's call order", async () => {
  const session = await db.chatSession.create({ data: { id: "chs_order", user_id: "usr_order", title: "t" } });
  const calls = Array.from({ length: 12 }, (_, i) => ({ tool_call_id: `call_${i}`, tool_name: "create_user_rule", method: "POST", path: "/v0/user/me/rules", body: { name: `r${i}` }, summary: `rule ${i}` }));
  // as on a fast PostgreSQL: every insert within one millisecond
  const now = new Date("2026-11-27T00:00:00Z");
  const clock = vi.spyOn(Date, "now").mockReturnValue(now.getTime());
  const stored = await proposeChatActions(db, { user_id: "usr_order", session_id: session.id, actions: calls, now }).finally(() => clock.mockRestore());
  expect(stored.map((a) => a.tool_call_id)).toEqual(calls.map((c) => c.tool_call_id));
  const listed = await listChatActions(db, { user_id: "usr_order", session_id: session.id });
  expect(listed.map((a: { tool_call_id: string }) => a.tool_call_id)).toEqual(calls.map((c) => c.tool_call_id));
});
