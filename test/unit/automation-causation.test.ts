import { describe, expect, it } from "vitest";
import type { AutomationCause } from "../../lib/automation-finance.ts";
import { MAX_AUTOMATION_DEPTH, RULE_LIMITS } from "../../lib/contracts/rules.ts";
import { causeOfReaction, decideReaction } from "../../subgraphs/agents/automation/causation.ts";
import { decideFiring, stopReason } from "../../subgraphs/agents/rules/rule-limits.ts";
import { ruleStatus } from "../../subgraphs/agents/rules/rule-status.ts";

// Issue 26, finding 2: automation has causation. The chain, depth, cooldown and cap decisions as plain functions.
const cause = (chain: string[], depth = chain.length): AutomationCause => ({ root: "ledger:1", chain, depth, firing_id: "rex_1" });
const now = new Date("2026-11-26T12:00:00Z");
const rule = (id: string, action_type: "transfer" | "notification" | "strategy_trigger" = "transfer", last_fired_at: Date | null = null) => ({ id, action_type, last_fired_at });

describe("an automation's reaction to a movement (causation.ts)", () => {
  it("lets anything react to the user's own movement", () => {
    expect(decideReaction(null, "rule:A", true)).toEqual({ allowed: true });
    expect(decideReaction(undefined, "strategy:S", true)).toEqual({ allowed: true });
  });

  it("never lets an automation react to a movement its own chain caused, made by it or by anything it caused", () => {
    expect(decideReaction(cause(["rule:A"]), "rule:A", true)).toEqual({ allowed: false, why: "own_chain", loop: ["rule:A"] });
    expect(decideReaction(cause(["rule:A", "rule:B"]), "rule:A", true)).toEqual({ allowed: false, why: "own_chain", loop: ["rule:A", "rule:B"] });
    expect(decideReaction(cause(["rule:X", "rule:A", "strategy:S"]), "rule:A", false)).toEqual({ allowed: false, why: "own_chain", loop: ["rule:A", "strategy:S"] });
  });

  it(`lets a money-moving automation make at most ${MAX_AUTOMATION_DEPTH} hops; one that moves nothing reacts at any depth`, () => {
    expect(MAX_AUTOMATION_DEPTH).toBe(2);
    expect(decideReaction(cause(["rule:A"]), "rule:B", true)).toEqual({ allowed: true });
    expect(decideReaction(cause(["rule:A", "rule:B"]), "rule:C", true)).toEqual({ allowed: false, why: "too_deep", depth: 3 });
    expect(decideReaction(cause(["rule:A", "rule:B"]), "rule:C", false)).toEqual({ allowed: true });
  });

  it("extends the cause by one hop, keeping the root; a reaction to the user's own movement roots there", () => {
    expect(causeOfReaction(null, "ledger:7", ["rule:A"], "rex_1")).toEqual({ root: "ledger:7", chain: ["rule:A"], depth: 1, firing_id: "rex_1" });
    expect(causeOfReaction({ root: "ledger:7", chain: ["rule:A"], depth: 1, firing_id: "rex_1" }, "ledger:9", ["rule:B", "strategy:S"], "rex_2")).toEqual({ root: "ledger:7", chain: ["rule:A", "rule:B", "strategy:S"], depth: 2, firing_id: "rex_2" });
  });
});

describe("whether a rule fires (rule-limits.ts decideFiring)", () => {
  it("fires on the user's own movement and on another rule's first hop", () => {
    expect(decideFiring({ rule: rule("A"), cause: null, firings_last_hour: 0, now })).toEqual({ outcome: "fire" });
    expect(decideFiring({ rule: rule("B"), cause: cause(["rule:A"]), firings_last_hour: 0, now })).toEqual({ outcome: "fire" });
  });

  it("stops the two-rule loop at its second turn: both rules of the loop", () => {
    const decision = decideFiring({ rule: rule("A"), cause: cause(["rule:A", "rule:B"]), firings_last_hour: 1, now });
    expect(decision).toEqual({ outcome: "stop", why: "loop", rule_ids: ["A", "B"], loop: ["rule:A", "rule:B", "rule:A"] });
    const reason = stopReason(decision as Extract<typeof decision, { outcome: "stop" }>, "A", new Map([["A", "Send to 1"], ["B", "Send to 2"]]));
    expect(reason).toContain('rule "Send to 1" → rule "Send to 2" → rule "Send to 1"');
    expect(reason).toMatch(/^Automation loop stopped/);
  });

  it("stops a rule on its own movement (a rule reacting to its own transfer out), and a strategy in the loop is not a rule to stop", () => {
    expect(decideFiring({ rule: rule("A"), cause: cause(["rule:A"]), firings_last_hour: 1, now })).toMatchObject({ outcome: "stop", why: "loop", rule_ids: ["A"] });
    expect(decideFiring({ rule: rule("A", "strategy_trigger"), cause: cause(["rule:A", "strategy:S"], 1), firings_last_hour: 1, now })).toMatchObject({ outcome: "stop", why: "loop", rule_ids: ["A"] });
  });

  it("stops a money-moving rule past the depth, not a notification rule", () => {
    expect(decideFiring({ rule: rule("C"), cause: cause(["rule:A", "rule:B"]), firings_last_hour: 0, now })).toMatchObject({ outcome: "stop", why: "too_deep", rule_ids: ["C"] });
    expect(decideFiring({ rule: rule("C", "strategy_trigger"), cause: cause(["rule:A", "rule:B"]), firings_last_hour: 0, now })).toMatchObject({ outcome: "stop", why: "too_deep" });
    expect(decideFiring({ rule: rule("N", "notification"), cause: cause(["rule:A", "rule:B"]), firings_last_hour: 0, now })).toEqual({ outcome: "fire" });
  });

  it("stops a rule at its hourly cap, per action", () => {
    for (const action of ["transfer", "strategy_trigger", "notification"] as const) {
      const cap = RULE_LIMITS.firings_per_hour[action];
      expect(decideFiring({ rule: rule("R", action), cause: null, firings_last_hour: cap - 1, now })).toEqual({ outcome: "fire" });
      expect(decideFiring({ rule: rule("R", action), cause: null, firings_last_hour: cap, now })).toMatchObject({ outcome: "stop", why: "hourly_cap", rule_ids: ["R"], cap });
    }
    expect(RULE_LIMITS.firings_per_hour).toEqual({ transfer: 30, strategy_trigger: 30, notification: 120 });
  });

  it("skips a money-moving rule inside its cooldown; a notification rule has none", () => {
    expect(RULE_LIMITS.cooldown_ms).toEqual({ transfer: 30_000, strategy_trigger: 30_000, notification: 0 });
    const at = (ms: number) => new Date(now.getTime() - ms);
    expect(decideFiring({ rule: rule("R", "transfer", at(29_999)), cause: null, firings_last_hour: 1, now })).toMatchObject({ outcome: "skip", reason: expect.stringContaining("cooldown") });
    expect(decideFiring({ rule: rule("R", "transfer", at(30_000)), cause: null, firings_last_hour: 1, now })).toEqual({ outcome: "fire" });
    expect(decideFiring({ rule: rule("R", "notification", at(0)), cause: null, firings_last_hour: 1, now })).toEqual({ outcome: "fire" });
  });

  it("decides a loop before the cap and the cap before the cooldown", () => {
    expect(decideFiring({ rule: rule("A", "transfer", now), cause: cause(["rule:A"]), firings_last_hour: 99, now })).toMatchObject({ outcome: "stop", why: "loop" });
    expect(decideFiring({ rule: rule("A", "transfer", now), cause: null, firings_last_hour: 99, now })).toMatchObject({ outcome: "stop", why: "hourly_cap" });
  });
});

describe("a rule's state", () => {
  it("reads enabled, disabled or error from enabled and last_error", () => {
    expect(ruleStatus({ enabled: true, last_error: null })).toBe("enabled");
    expect(ruleStatus({ enabled: false, last_error: null })).toBe("disabled");
    expect(ruleStatus({ enabled: false, last_error: "loop" })).toBe("error");
  });
});
