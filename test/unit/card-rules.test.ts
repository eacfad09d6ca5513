import { describe, expect, it } from "vitest";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { CARD_STATUSES } from "../../lib/vocabulary/cards.ts";
import { applyControls, NO_CONTROLS } from "../../subgraphs/finance/cards/card-controls.ts";
import { canMoveCard, canPerform, requireCardAction } from "../../subgraphs/finance/cards/card-status.ts";
import { isLuhnValid, luhnCheckDigit, SandboxCardIssuer, SANDBOX_BIN } from "../../subgraphs/finance/cards/sandbox-card-issuer.ts";

// Issue 10: the card rules as plain functions.

describe("card statuses (spec 3.3)", () => {
  it("allow exactly the table's moves, plus suspended → closed", () => {
    const allowed = CARD_STATUSES.flatMap((from) => CARD_STATUSES.filter((to) => canMoveCard(from, to)).map((to) => `${from}->${to}`));
    expect(allowed).toEqual(["pending->active", "active->suspended", "active->closed", "suspended->active", "suspended->closed"]);
  });

  it("tie each action to the statuses it starts from", () => {
    expect(canPerform("pending", "unfreeze")).toBe(false);
    expect(canPerform("pending", "activate")).toBe(true);
    expect(requireCardAction("suspended", "close")).toBe("closed");
    expect(() => requireCardAction("closed", "unfreeze")).toThrow(expect.objectContaining({ code: "CRD-409-001", message: expect.stringContaining("closed is final") }));
    expect(() => requireCardAction("active", "activate")).toThrow(expect.objectContaining({ message: "The card is active; it cannot activate (only freeze or close)." }));
  });
});

describe("controls", () => {
  it("normalise limits and MCC lists, keep absent ones, clear nulls", () => {
    const set = applyControls(NO_CONTROLS, { daily_limit: "100.50", blocked_mcc: ["7995", "5933", "7995"] }, 2);
    expect(set).toEqual({ daily_limit: "100.5", monthly_limit: null, single_transaction_limit: null, allowed_mcc: [], blocked_mcc: ["5933", "7995"] });
    expect(applyControls(set, { daily_limit: null, monthly_limit: "900" }, 2)).toMatchObject({ daily_limit: null, monthly_limit: "900", blocked_mcc: ["5933", "7995"] });
  });

  it("refuse allowed and blocked MCCs together, however they come to meet", () => {
    expect(() => applyControls(NO_CONTROLS, { allowed_mcc: ["5411"], blocked_mcc: ["7995"] }, 2)).toThrow(expect.objectContaining({ code: "CRD-422-001" }));
    const blocked = applyControls(NO_CONTROLS, { blocked_mcc: ["7995"] }, 2);
    expect(() => applyControls(blocked, { allowed_mcc: ["5411"] }, 2)).toThrow(expect.objectContaining({ code: "CRD-422-001" }));
    expect(applyControls(blocked, { allowed_mcc: ["5411"], blocked_mcc: null }, 2)).toMatchObject({ allowed_mcc: ["5411"], blocked_mcc: [] });
  });

  it("refuse limits beyond cents, zero, and codes that are not four digits", () => {
    for (const input of [{ daily_limit: "1.001" }, { daily_limit: "0" }, { single_transaction_limit: "-5" }, { allowed_mcc: ["541"] }]) {
      expect(() => applyControls(NO_CONTROLS, input, 2), JSON.stringify(input)).toThrow(expect.objectContaining({ code: "GEN-422-001" }));
    }
  });
});

describe("the sandbox issuer", () => {
  it("issues Luhn-valid 16-digit numbers on the test BIN, a 3-digit CVV and a future expiry", async () => {
    expect(luhnCheckDigit("7992739871")).toBe("3");
    expect(isLuhnValid("4242424242424242")).toBe(true);
    expect(isLuhnValid("4242424242424241")).toBe(false);
    const now = new Date(Date.UTC(2026, 10, 23));
    for (const type of ["virtual", "physical"] as const) {
      const card = await new SandboxCardIssuer().issue({ card_id: "crd_x", user_id: "usr_x", type, currency: "USD", shipping_address: null }, now);
      expect(card.number).toMatch(new RegExp(`^${SANDBOX_BIN}[0-9]{10}$`));
      expect(isLuhnValid(card.number)).toBe(true);
      expect(card.cvv).toMatch(/^[0-9]{3}$/);
      expect([card.expiry_month, card.expiry_year]).toEqual([11, 2029]);
      expect(card.confirmed).toBe(type === "virtual");
    }
  });
});

describe("CardDataCipher", () => {
  it("seals with a fresh IV each time, opens what it sealed, and refuses a tampered or foreign value", () => {
    const cipher = CardDataCipher.load(Buffer.alloc(32, 7), "memory://");
    const sealed = cipher.seal("4000021234567899");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("4000021234567899");
    expect(cipher.seal("4000021234567899")).not.toBe(sealed);
    expect(cipher.open(sealed)).toBe("4000021234567899");
    const [v, iv, tag, body] = sealed.split(".");
    const flipped = `${v}.${iv}.${tag}.${body!.slice(0, -2)}${body!.at(-2) === "A" ? "B" : "A"}${body!.at(-1)}`;
    expect(() => cipher.open(flipped)).toThrow();
    expect(() => CardDataCipher.load(Buffer.alloc(32, 8), "memory://").open(sealed)).toThrow();
  });
});
