import pg from "pg";
import { describe, expect, it } from "vitest";
import { timestamptzParser } from "../../lib/db/prepared-query.ts";

// Issue 30: prepared-query.ts reads timestamptz columns with a shortcut for PostgreSQL's UTC
// output; each value must be the Date pg's own parser (postgres-date) gives, or pg's own answer.

const pgParse = pg.types.getTypeParser(1184, "text") as (value: string) => unknown;
const parse = timestamptzParser(pgParse as (value: unknown) => unknown);

function expectSame(text: string): void {
  const expected = pgParse(text);
  const actual = parse(text);
  if (expected instanceof Date) {
    expect(actual, text).toBeInstanceOf(Date);
    expect(Object.is((actual as Date).getTime(), expected.getTime()), `${text}: ${(actual as Date).getTime()} vs ${expected.getTime()}`).toBe(true);
  } else expect(actual, text).toEqual(expected);
}

describe("timestamptzParser", () => {
  it("gives pg's Date for PostgreSQL's UTC output at every fraction length, in every era it takes", () => {
    const pad = (n: number, width: number) => String(n).padStart(width, "0");
    let seed = 30;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const year = i % 10 === 0 ? 100 + Math.floor(random() * 1900) : 1970 + Math.floor(random() * 100);
      const fraction = pad(Math.floor(random() * 1_000_000), 6).slice(0, i % 7);
      const text = `${pad(year, 4)}-${pad(1 + Math.floor(random() * 12), 2)}-${pad(1 + Math.floor(random() * 28), 2)} ${pad(Math.floor(random() * 24), 2)}:${pad(Math.floor(random() * 60), 2)}:${pad(Math.floor(random() * 60), 2)}${fraction ? `.${fraction}` : ""}+00`;
      expectSame(text);
    }
    // fractions whose thousandfold is not exact in floating point (0.57 * 1000 = 570.0000000000001)
    for (const fraction of ["57", "569999", "1", "999999", "000001", "5", "005", "0", "000000", "29", "58", "145"]) expectSame(`2026-11-02 10:00:00.${fraction}+00`);
  });

  it("leaves everything else to pg's parser", () => {
    for (const text of [
      "2026-11-02 10:00:00+05:30",
      "2026-11-02 10:00:00.5-08",
      "2026-11-02 10:00:00+01",
      "0099-01-01 00:00:00+00",
      "0001-01-01 00:00:00+00 BC",
      "12026-01-01 00:00:00+00",
      "infinity",
      "-infinity",
      "2026-11-02T10:00:00+00",
      "2026-11-02 10:00:00.+00",
      "2026-11-02 10:0a:00+00",
      "2026-11-02 10:00:00.1234567+00",
    ])
      expectSame(text);
  });
});
