import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { TRANSACTION_STATUSES, type TransactionStatus } from "../../lib/vocabulary/transactions.ts";
import { canMoveTransaction, INITIAL_TRANSACTION_STATUS, pathFromInitial, requireTransactionMove } from "../../subgraphs/finance/transactions/transaction-status.ts";

/** Spec 3.4, and nothing else. */
const ALLOWED: [TransactionStatus, TransactionStatus][] = [
  ["pending", "processing"],
  ["processing", "completed"],
  ["processing", "failed"],
];

const PAIRS = TRANSACTION_STATUSES.flatMap((from) => TRANSACTION_STATUSES.map((to) => [from, to] as [TransactionStatus, TransactionStatus]));
const refused = PAIRS.filter(([from, to]) => !ALLOWED.some(([f, t]) => f === from && t === to));

describe("transaction status moves (spec 3.4)", () => {
  it("has exactly pending, processing, completed and failed, starting pending", () => {
    expect([...TRANSACTION_STATUSES].sort()).toEqual(["completed", "failed", "pending", "processing"]);
    expect(INITIAL_TRANSACTION_STATUS).toBe("pending");
  });

  it.each(ALLOWED)("allows %s → %s", (from, to) => {
    expect(canMoveTransaction(from, to)).toBe(true);
    expect(() => requireTransactionMove(from, to)).not.toThrow();
  });

  it("tries every other (from, to) pair", () => {
    expect(refused).toHaveLength(TRANSACTION_STATUSES.length ** 2 - ALLOWED.length);
  });

  it.each(refused)("refuses %s → %s with TXN-409-001 naming the current status", (from, to) => {
    expect(canMoveTransaction(from, to)).toBe(false);
    let error: unknown;
    try {
      requireTransactionMove(from, to);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("TXN-409-001");
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).detail).toContain(`is ${from}`);
  });

  it("walks a movement recorded as settled through every step", () => {
    expect(pathFromInitial("pending")).toEqual(["pending"]);
    expect(pathFromInitial("processing")).toEqual(["pending", "processing"]);
    expect(pathFromInitial("completed")).toEqual(["pending", "processing", "completed"]);
    expect(pathFromInitial("failed")).toEqual(["pending", "processing", "failed"]);
    for (const status of TRANSACTION_STATUSES) {
      const path = pathFromInitial(status);
      for (let i = 1; i < path.length; i++) expect(canMoveTransaction(path[i - 1]!, path[i]!)).toBe(true);
    }
  });
});
