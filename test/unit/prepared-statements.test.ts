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

  it("finds a text's name again when the text is built anew, among texts of its length", () => {
    const text = (n: number) => [PREPARED, "SELECT ", String(n).padStart(3, "0")].join("");
    const first = statementName({ sql: text(7) });
    const second = statementName({ sql: text(8) });
    expect(second).not.toBe(first);
    expect(statementName({ sql: text(7) })).toBe(first);
    expect(statementName({ sql: text(8) })).toBe(second);
    expect(statementName({ sql: `${text(7)} ` })).not.toBe(first);
  });

  it("runs texts past the first 32 unnamed, so a connection's prepared statements stay bounded", () => {
    const named = Array.from({ length: 40 }, (_, i) => statementName({ sql: `${PREPARED}SELECT ${i + 100}` }));
    expect(named.filter((name) => name !== undefined).length).toBeLessThanOrEqual(32);
    expect(named.at(-1)).toBeUndefined();
  });
});
