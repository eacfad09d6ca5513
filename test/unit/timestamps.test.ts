import { describe, expect, it } from "vitest";
import { buildSchema, parse } from "graphql";
import { answersInEpochMs, applyTimestampFormat, formatIso8601, isTimestampField, timestampFormat } from "../../rest-adapter/route-kit/timestamps.ts";

const MS = Date.UTC(2024, 4, 1, 12, 34, 56, 789); // 2024-05-01T12:34:56.789Z
const ISO = "2024-05-01T12:34:56Z";
const EXACT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe("timestampFormat (X-Timestamp-Format)", () => {
  it("is iso8601 only for the exact value iso8601 (spec 2.1)", () => {
    expect(timestampFormat("iso8601")).toBe("iso8601");
    expect(timestampFormat(["iso8601", "epoch"])).toBe("iso8601");
  });

  it.each([undefined, "", "epoch", "epoch_ms", "rfc3339", "iso", "iso-8601", "unix", "ISO8601", "Iso8601", " ISO8601 ", "iso8601 ", "iso8601, iso8601"])("falls back to epoch ms for %j without rejecting it", (value) => {
    expect(timestampFormat(value)).toBe("epoch_ms");
  });
});

describe("isTimestampField", () => {
  it.each(["created_at", "updated_at", "_at", "claimed_at", "timestamp", "period_start", "period_end"])("%s is a timestamp field", (name) => {
    expect(isTimestampField(name)).toBe(true);
  });

  it.each(["at", "status", "created", "at_risk", "timestamps", "period", "start", "period_start_ms", "date", "chain_id", "created_at_x"])("%s is not", (name) => {
    expect(isTimestampField(name)).toBe(false);
  });
});

describe("formatIso8601", () => {
  it("gives exactly YYYY-MM-DDTHH:MM:SSZ in UTC, dropping milliseconds", () => {
    expect(formatIso8601(MS)).toBe(ISO);
    expect(formatIso8601(0)).toBe("1970-01-01T00:00:00Z");
    expect(formatIso8601(MS)).toMatch(EXACT);
  });
});

describe("applyTimestampFormat", () => {
  const body = {
    id: "usr_1",
    created_at: MS,
    updated_at: MS + 1000,
    timestamp: MS,
    period_start: MS,
    period_end: MS + 2000,
    amount: "12.50",
    chain_id: 8453,
    status: "pending",
    count: 1714566896789,
    nested: { changed_at: MS, value: MS, deeper: { period_end: MS } },
    status_history: [
      { to: "pending", changed_at: MS },
      { to: "in_progress", changed_at: MS + 3000, inner: [{ timestamp: MS }] },
    ],
    expires_at: null,
    _links: { self: { href: "https://x.test/v0/user/me" }, created_at: { href: "https://x.test/a" } },
  };

  it("serialises every timestamp field, at any depth in objects and arrays, as exact ISO 8601 strings", () => {
    const out = applyTimestampFormat(body, "iso8601") as any;
    expect(out.created_at).toBe(ISO);
    expect(out.updated_at).toBe("2024-05-01T12:34:57Z");
    expect(out.timestamp).toBe(ISO);
    expect(out.period_start).toBe(ISO);
    expect(out.period_end).toBe("2024-05-01T12:34:58Z");
    expect(out.nested.changed_at).toBe(ISO);
    expect(out.nested.deeper.period_end).toBe(ISO);
    expect(out.status_history[0].changed_at).toBe(ISO);
    expect(out.status_history[1].changed_at).toBe("2024-05-01T12:34:59Z");
    expect(out.status_history[1].inner[0].timestamp).toBe(ISO);
    for (const value of [out.created_at, out.nested.changed_at, out.status_history[1].inner[0].timestamp]) expect(value).toMatch(EXACT);
  });

  it("leaves every other field untouched, including numbers that look like instants and null timestamps", () => {
    const out = applyTimestampFormat(body, "iso8601") as any;
    expect(out).toMatchObject({ id: "usr_1", amount: "12.50", chain_id: 8453, status: "pending", count: 1714566896789, expires_at: null });
    expect(out.nested.value).toBe(MS);
    expect(out.status_history[0].to).toBe("pending");
  });

  it("never rewrites _links", () => {
    const out = applyTimestampFormat(body, "iso8601") as any;
    expect(out._links).toEqual(body._links);
  });

  it("keeps epoch milliseconds as integers by default and turns Dates and ISO strings into them", () => {
    const out = applyTimestampFormat(
      { created_at: MS, updated_at: new Date(MS), claimed_at: "2024-05-01T12:34:56.789Z", timestamp: "not a date", note: "2024-05-01T12:34:56Z", list: [{ period_start: new Date(MS) }] },
      "epoch_ms",
    ) as any;
    expect(out).toEqual({ created_at: MS, updated_at: MS, claimed_at: MS, timestamp: "not a date", note: "2024-05-01T12:34:56Z", list: [{ period_start: MS }] });
  });

  it("serialises Date values and ISO strings with milliseconds or offsets to the exact UTC format too", () => {
    const out = applyTimestampFormat({ created_at: new Date(MS), claimed_at: "2024-05-01T14:34:56.789+02:00", items: [{ timestamp: "2024-05-01T12:34:56.789Z" }] }, "iso8601") as any;
    expect(out).toEqual({ created_at: ISO, claimed_at: ISO, items: [{ timestamp: ISO }] });
  });

  it("handles top-level arrays and scalars, and does not mutate its input", () => {
    const input = [{ created_at: MS }, 5, "x", null];
    const copy = structuredClone(input);
    expect(applyTimestampFormat(input, "iso8601")).toEqual([{ created_at: ISO }, 5, "x", null]);
    expect(input).toEqual(copy);
    expect(applyTimestampFormat(body, "epoch_ms")).toEqual(body);
  });
});

describe("answersInEpochMs (the epoch-ms pass skipped where the schema makes it give back what it got)", () => {
  const schema = buildSchema(`
    scalar Timestamp
    scalar JSON
    enum Status { pending done }
    type History { to: Status! changed_at: Timestamp! }
    type Item { id: ID! status: Status! amount: String! created_at: Timestamp! expires_at: Timestamp count: Int! history: [History!]! label_at: String payload: JSON period: Period }
    type Period { period_start: Timestamp! period_end: Float }
    type Query { items: [Item!]! item: Item }
  `);
  const answers = (source: string) => answersInEpochMs(schema, parse(source));

  it("holds when every timestamp-named field is a Timestamp or a number, at any depth, aliases and fragments included", () => {
    expect(answers("{ items { id status amount created_at expires_at count __typename history { to changed_at } period { period_start period_end } } }")).toBe(true);
    expect(answers("{ item { ...F } } fragment F on Item { updated_at: created_at history { ... on History { changed_at } } }")).toBe(true);
    // a timestamp name given to a plain string field is what the pass would parse
    expect(answers("{ item { timestamp: amount } }")).toBe(false);
    expect(answers("{ item { created_at: status } }")).toBe(false);
  });

  it("fails for a string under a timestamp name and for free-form JSON, whose objects may hold any key", () => {
    expect(answers("{ items { id label_at } }")).toBe(false);
    expect(answers("{ items { id payload } }")).toBe(false);
    expect(answers("{ item { ...F } } fragment F on Item { payload }")).toBe(false);
  });

  it("is right: where it holds, the pass gives back each value it got (Timestamp serialises to numbers or null)", () => {
    const data = { items: [{ id: "1", status: "pending", amount: "2024-05-01T12:34:56Z", created_at: MS, expires_at: null, count: 3, history: [{ to: "done", changed_at: MS }], period: { period_start: MS, period_end: 1.5 } }] };
    expect(answers("{ items { id status amount created_at expires_at count history { to changed_at } period { period_start period_end } } }")).toBe(true);
    expect(applyTimestampFormat(data, "epoch_ms")).toBe(data);
  });
});
