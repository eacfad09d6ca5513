import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { CHAT_ACTION_STATUSES, type ChatActionStatus } from "../../lib/vocabulary/agents.ts";
import { CHAT_ACTION_RUN_MS, chatActionStatus, interruptedRun, requireChatActionMove } from "../../subgraphs/agents/chat/chat-action-status.ts";
import { proposedAction } from "../../rest-adapter/agent-runtime/chat/proposals.ts";

describe("a proposed chat action's life", () => {
  const allowed: [ChatActionStatus, ChatActionStatus][] = [
    ["proposed", "confirmed"],
    ["proposed", "declined"],
    ["confirmed", "completed"],
    ["confirmed", "failed"],
  ];

  it("allows only the moves of the table; every other move is CHT-409-001", () => {
    for (const from of CHAT_ACTION_STATUSES)
      for (const to of CHAT_ACTION_STATUSES) {
        const legal = allowed.some(([a, b]) => a === from && b === to);
        if (legal) expect(() => requireChatActionMove(from, to), `${from} → ${to}`).not.toThrow();
        else {
          const error = (() => {
            try {
              requireChatActionMove(from, to);
            } catch (e) {
              return e;
            }
          })();
          expect(error, `${from} → ${to}`).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe("CHT-409-001");
        }
      }
  });

  it("takes a confirmed action unsettled a minute after its confirmation as interrupted, within a day of its proposal", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const row = (status: string, decided: number | null, created = 120_000) => ({ status, decided_at: decided === null ? null : ago(decided), created_at: ago(created) });
    expect(interruptedRun(row("confirmed", CHAT_ACTION_RUN_MS), now)).toBe(true);
    expect(interruptedRun(row("confirmed", CHAT_ACTION_RUN_MS - 1), now)).toBe(false);
    expect(interruptedRun(row("confirmed", null), now)).toBe(false);
    for (const status of ["proposed", "completed", "failed", "declined"]) expect(interruptedRun(row(status, CHAT_ACTION_RUN_MS * 2), now), status).toBe(false);
    expect(interruptedRun(row("confirmed", CHAT_ACTION_RUN_MS, 86_400_000 - CHAT_ACTION_RUN_MS - 1), now)).toBe(true);
    expect(interruptedRun(row("confirmed", CHAT_ACTION_RUN_MS, 86_400_000 - CHAT_ACTION_RUN_MS), now)).toBe(false);
  });

  it("reads a proposal past its window as expired, which nothing can confirm", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(chatActionStatus({ status: "proposed", expires_at: new Date("2026-11-26T12:00:01Z") }, now)).toBe("proposed");
    expect(chatActionStatus({ status: "proposed", expires_at: now }, now)).toBe("expired");
    expect(chatActionStatus({ status: "confirmed", expires_at: new Date(0) }, now)).toBe("confirmed");
    expect(() => requireChatActionMove("expired", "confirmed")).toThrow(AppError);
  });
});

describe("proposedAction", () => {
  const tool = { name: "create_user_rule", description: "Make a rule: a trigger and an action (POST /v0/user/me/rules).\n\nmore" };

  it("says the operation, the exact request and what moves where", () => {
    const body = { name: "sweep", action_type: "transfer", action: { from_wallet_id: 1, to_wallet_id: 2, asset: "USDC", amount: "1" } };
    const action = proposedAction(tool, { method: "POST", url: "/v0/user/me/rules", body }, "call_1");
    // the stored request is exactly the one built: a confirmation runs nothing else
    expect(action).toMatchObject({ tool_call_id: "call_1", tool_name: "create_user_rule", method: "POST", path: "/v0/user/me/rules", body });
    expect(action.summary.split("\n")).toEqual([
      "Make a rule: a trigger and an action (POST /v0/user/me/rules).",
      'Request: POST /v0/user/me/rules {"name":"sweep","action_type":"transfer","action":{"from_wallet_id":1,"to_wallet_id":2,"asset":"USDC","amount":"1"}}',
      "Moves money: 1 USDC from wallet 1 to wallet 2.",
    ]);
  });

  it("says nothing of money where nothing moves", () => {
    const action = proposedAction(tool, { method: "DELETE", url: "/v0/user/me/rules/rul_1" }, "call_2");
    expect(action.body).toBeNull();
    expect(action.summary).not.toContain("Moves money");
  });
});
