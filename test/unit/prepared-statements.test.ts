import { describe, expect, it } from "vitest";
import { PREPARED, statementName } from "../../lib/db/prepared-statements.ts";

describe("prepared statement names", () => {
  it("names only statements marked PREPARED, one name per text", () => {
    expect(statementName({ sql: "SELECT 1" })).toBeUndefined();
    const a = statementName({ sql: `${PREPARED}SELECT 1` });
    const b = statementName({ sql: `${PREPARED}SELECT 2` });
    expect(a).toMatch(/^prepared_\d+$/);
    expect(b).not.toBe(a);
    expect(statementName({ sql: `${PREPARED}SELECT 1` })).toBe(a);
  });

  it("runs texts past the first 32 unnamed, so a connection's prepared statements stay bounded", () => {
    const named = Array.from({ length: 40 }, (_, i) => statementName({ sql: `${PREPARED}SELECT ${i + 100}` }));
    expect(named.filter((name) => name !== undefined).length).toBeLessThanOrEqual(32);
    expect(named.at(-1)).toBeUndefined();
  });
});
