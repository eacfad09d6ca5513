import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { idempotencyRequestHash, requireIdempotencyKey } from "../../lib/idempotency.ts";
import { MAX_AMOUNT_INTEGER_DIGITS, parseAmount, withinAmountBound } from "../../subgraphs/finance/transactions/amount.ts";

describe("Idempotency-Key request hash", () => {
  const args = { wallet_id: 7, asset: "USDC", amount: "25.5", description: null };

  it("is the same for the same request, whatever the key order", () => {
    const reordered = { description: null, amount: "25.5", asset: "USDC", wallet_id: 7 };
    expect(idempotencyRequestHash("sandbox_deposit", reordered)).toBe(idempotencyRequestHash("sandbox_deposit", args));
    expect(idempotencyRequestHash("sandbox_deposit", { nested: { b: 1, a: [2, { d: 3, c: 4 }] } })).toBe(
      idempotencyRequestHash("sandbox_deposit", { nested: { a: [2, { c: 4, d: 3 }], b: 1 } }),
    );
  });

  it("ignores absent optional fields but not values", () => {
    expect(idempotencyRequestHash("op", { a: 1, b: undefined })).toBe(idempotencyRequestHash("op", { a: 1 }));
    expect(idempotencyRequestHash("op", { a: 1, b: null })).not.toBe(idempotencyRequestHash("op", { a: 1 }));
  });

  it("differs for any other value, type or operation", () => {
    const base = idempotencyRequestHash("sandbox_deposit", args);
    expect(idempotencyRequestHash("sandbox_deposit", { ...args, amount: "25.50" })).not.toBe(base);
    expect(idempotencyRequestHash("sandbox_deposit", { ...args, wallet_id: 8 })).not.toBe(base);
    expect(idempotencyRequestHash("sandbox_deposit", { ...args, wallet_id: "7" })).not.toBe(base);
    expect(idempotencyRequestHash("card_funding", args)).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts 1 to 255 visible ASCII characters as a key, nothing else", () => {
    for (const key of ["a", "3f1c2a9e-7b8d-4c1e-9f00-123456789abc", "x".repeat(255), "!~"]) expect(requireIdempotencyKey(key, ["header", "Idempotency-Key"])).toBe(key);
    for (const key of ["", "x".repeat(256), "has space", "tab\t", "é", 42, null]) {
      expect(() => requireIdempotencyKey(key, ["header", "Idempotency-Key"])).toThrow(AppError);
      try {
        requireIdempotencyKey(key, ["header", "Idempotency-Key"]);
      } catch (error) {
        expect((error as AppError).code).toBe("GEN-422-001");
        expect((error as AppError).validation?.[0]?.loc).toEqual(["header", "Idempotency-Key"]);
      }
    }
  });
});

describe("ledger amounts", () => {
  it("normalises positive decimal strings within the asset's decimals", () => {
    expect(parseAmount("0.10", 18, ["amount"])).toBe("0.1");
    expect(parseAmount("007", 6, ["amount"])).toBe("7");
    expect(parseAmount("25.500000", 6, ["amount"])).toBe("25.5");
    expect(parseAmount("0.000000000000000001", 18, ["amount"])).toBe("0.000000000000000001");
  });

  it.each([
    ["0", 18],
    ["0.000", 18],
    ["-1", 18],
    ["1e3", 18],
    ["1.", 18],
    [".5", 18],
    ["0.0000001", 6],
    ["1".repeat(61), 18],
    ["1".repeat(31), 18],
  ])("refuses %s (decimals %i) with GEN-422-001 at body.amount", (value, decimals) => {
    try {
      parseAmount(value, decimals, ["amount"]);
      expect.fail("accepted");
    } catch (error) {
      expect((error as AppError).code).toBe("GEN-422-001");
      expect((error as AppError).validation?.[0]?.loc).toEqual(["amount"]);
    }
  });

  it("takes 30 digits before the point, and bounds what is computed from an amount the same way (issue 26)", () => {
    expect(MAX_AMOUNT_INTEGER_DIGITS).toBe(30);
    expect(parseAmount(`${"9".repeat(30)}.5`, 18, ["amount"])).toBe(`${"9".repeat(30)}.5`);
    expect(withinAmountBound(`${"9".repeat(30)}.999999999999999999`)).toBe(true);
    expect(withinAmountBound(`000${"9".repeat(30)}`)).toBe(true);
    expect(withinAmountBound(`-${"9".repeat(30)}`)).toBe(true);
    expect(withinAmountBound(`1${"0".repeat(30)}`)).toBe(false);
  });

  it("never takes a number", () => {
    expect(() => parseAmount(0.1, 18, ["amount"])).toThrow(AppError);
  });
});
