import { describe, expect, it } from "vitest";
import { CARD_AUTHORIZATION_STATUSES, CARD_DECLINE_REASONS } from "../../lib/vocabulary/cards.ts";
import { AUTHORIZATION_ACTIONS, canActOnAuthorization, decideAuthorization, requireAuthorizationAction, type AuthorizationAction, type AuthorizationFacts } from "../../subgraphs/finance/cards/authorization-rules.ts";
import { NO_CONTROLS } from "../../subgraphs/finance/cards/card-controls.ts";

// Issue 10: every authorization is decided by one pure function, in the documented order.

const LIMITED = { single_transaction_limit: "50", daily_limit: "100", monthly_limit: "500", allowed_mcc: [], blocked_mcc: ["7995"] };

function facts(overrides: { card?: Partial<AuthorizationFacts["card"]>; request?: Partial<AuthorizationFacts["request"]>; spent?: Partial<AuthorizationFacts["spent"]>; available?: string | null } = {}): AuthorizationFacts {
  return {
    card: { status: "active", currency: "USD", controls: { ...NO_CONTROLS, ...LIMITED }, ...overrides.card },
    request: { amount: "10", currency: "USD", mcc: "5411", ...overrides.request },
    spent: { day: "0", month: "0", ...overrides.spent },
    available: overrides.available === undefined ? "1000" : overrides.available,
  };
}

const reason = (f: AuthorizationFacts) => {
  const outcome = decideAuthorization(f);
  return outcome.decision === "approved" ? "approved" : outcome.reason;
};

describe("decideAuthorization", () => {
  it("approves what every rule allows, and a card without controls", () => {
    expect(decideAuthorization(facts())).toEqual({ decision: "approved" });
    expect(reason(facts({ card: { controls: NO_CONTROLS }, request: { amount: "999.99" } }))).toBe("approved");
  });

  it.each([
    ["card_inactive", facts({ card: { status: "suspended" } })],
    ["card_inactive", facts({ card: { status: "pending" } })],
    ["card_inactive", facts({ card: { status: "closed" } })],
    ["currency_mismatch", facts({ request: { currency: "EUR" } })],
    ["single_transaction_limit_exceeded", facts({ request: { amount: "50.01" } })],
    ["daily_limit_exceeded", facts({ spent: { day: "90.01", month: "90.01" } })],
    ["monthly_limit_exceeded", facts({ spent: { day: "0", month: "490.01" } })],
    ["mcc_not_allowed", facts({ card: { controls: { ...NO_CONTROLS, allowed_mcc: ["5812"] } } })],
    ["mcc_blocked", facts({ request: { mcc: "7995" } })],
    ["insufficient_funds", facts({ available: "9.99" })],
    ["insufficient_funds", facts({ available: null })],
    ["insufficient_funds", facts({ available: "-5" })],
  ] as const)("declines %s", (expected, f) => {
    expect(decideAuthorization(f)).toEqual({ decision: "declined", reason: expected });
  });

  it("passes exactly at each limit and at exactly the available balance", () => {
    expect(reason(facts({ request: { amount: "50" } }))).toBe("approved");
    expect(reason(facts({ request: { amount: "50.00" } }))).toBe("approved");
    expect(reason(facts({ spent: { day: "90", month: "90" } }))).toBe("approved");
    expect(reason(facts({ spent: { day: "0", month: "490" } }))).toBe("approved");
    expect(reason(facts({ available: "10" }))).toBe("approved");
    expect(reason(facts({ available: "10.000000" }))).toBe("approved");
  });

  it("compares exact decimals, never floats (0.1 + 0.2 is 0.3)", () => {
    const controls = { ...NO_CONTROLS, daily_limit: "0.3" };
    expect(reason(facts({ card: { controls }, request: { amount: "0.2" }, spent: { day: "0.1" } }))).toBe("approved");
    expect(reason(facts({ card: { controls }, request: { amount: "0.21" }, spent: { day: "0.1" } }))).toBe("daily_limit_exceeded");
    expect(reason(facts({ card: { controls: NO_CONTROLS }, request: { amount: "12345678901234567890.01" }, available: "12345678901234567890" }))).toBe("insufficient_funds");
  });

  it("checks the rules in the documented order: the first failing one is the reason", () => {
    // everything wrong at once, then fixed one by one: the reasons follow CARD_DECLINE_REASONS
    const broken: AuthorizationFacts = {
      card: { status: "suspended", currency: "USD", controls: { ...NO_CONTROLS, single_transaction_limit: "5", daily_limit: "10", monthly_limit: "10", allowed_mcc: ["5411"] } },
      request: { amount: "6", currency: "EUR", mcc: "7995" },
      spent: { day: "5", month: "5" },
      available: "1",
    };
    const fixes: ((f: AuthorizationFacts) => void)[] = [
      (f) => (f.card.status = "active"),
      (f) => (f.request.currency = "usd"),
      (f) => (f.card.controls.single_transaction_limit = null),
      (f) => (f.card.controls.daily_limit = null),
      (f) => (f.card.controls.monthly_limit = null),
      (f) => (f.card.controls = { ...f.card.controls, allowed_mcc: [], blocked_mcc: ["7995"] }),
      (f) => (f.card.controls.blocked_mcc = []),
      (f) => (f.available = "6"),
    ];
    const seen: string[] = [];
    const f = structuredClone(broken);
    for (const fix of fixes) {
      seen.push(reason(f));
      fix(f);
    }
    seen.push(reason(f));
    expect(seen).toEqual([...CARD_DECLINE_REASONS, "approved"]);
  });
});

describe("authorization actions", () => {
  it("allow capture and reverse from pending, refund from captured, nothing else", () => {
    const allowed = CARD_AUTHORIZATION_STATUSES.flatMap((status) => (Object.keys(AUTHORIZATION_ACTIONS) as AuthorizationAction[]).filter((action) => canActOnAuthorization(status, action)).map((action) => `${status}:${action}`));
    expect(allowed).toEqual(["pending:capture", "pending:reverse", "captured:refund"]);
  });

  it("refuse the rest with CRD-409-002 naming the status", () => {
    expect(() => requireAuthorizationAction("captured", "capture")).toThrow(expect.objectContaining({ code: "CRD-409-002", message: "The authorization is captured; it cannot be captured (only refund)." }));
    expect(() => requireAuthorizationAction("pending", "refund")).toThrow(expect.objectContaining({ code: "CRD-409-002", message: expect.stringContaining("only capture or reverse") }));
    expect(() => requireAuthorizationAction("declined", "reverse")).toThrow(expect.objectContaining({ code: "CRD-409-002", message: expect.stringContaining("nothing more") }));
    expect(() => requireAuthorizationAction("pending", "capture")).not.toThrow();
  });
});
