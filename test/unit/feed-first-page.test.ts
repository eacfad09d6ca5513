import { describe, expect, it } from "vitest";
import { firstPageSql, firstPageStatement } from "../../subgraphs/finance/transactions/list-transactions.ts";

describe("the unfiltered first page's statement", () => {
  it.each([
    [10, false],
    [10, true],
    [50, false],
    [50, true],
  ])("limit %i, meta %s: the text and values listTransactions composes, for every user", (limit, meta) => {
    for (const user of ["usr_a", "usr_b", "usr_a"]) {
      const kept = firstPageSql(user, limit, meta);
      const composed = firstPageStatement(user, limit, meta);
      expect(kept.text).toBe(composed.text);
      expect(kept.values).toEqual(composed.values);
      expect(kept.values.length).toBeGreaterThan(0);
      expect(kept.values.every((value) => value === user)).toBe(true);
    }
  });

  it("each limit and meta has its own text", () => {
    expect(firstPageSql("usr_a", 10, false).text).not.toBe(firstPageSql("usr_a", 11, false).text);
    expect(firstPageSql("usr_a", 10, false).text).not.toBe(firstPageSql("usr_a", 10, true).text);
  });
});
