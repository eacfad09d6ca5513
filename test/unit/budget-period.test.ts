import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { calendarPeriod, currentPeriod, parseTimeZone, startOfLocalDay } from "../../subgraphs/finance/budgets/budget-period.ts";

// Budget periods (spec 2.10): weekly from Monday 00:00, monthly from the 1st 00:00, in the user's zone.

const iso = (bounds: { start: Date; end: Date }) => [bounds.start.toISOString(), bounds.end.toISOString()];
const hours = (bounds: { start: Date; end: Date }) => (bounds.end.getTime() - bounds.start.getTime()) / 3_600_000;

describe("weekly periods", () => {
  it("run Monday 00:00 to the next Monday 00:00 and change at the week boundary", () => {
    expect(iso(calendarPeriod("weekly", new Date("2026-11-29T23:59:59.999Z"), "UTC"))).toEqual(["2026-11-23T00:00:00.000Z", "2026-11-30T00:00:00.000Z"]);
    expect(iso(calendarPeriod("weekly", new Date("2026-11-30T00:00:00.000Z"), "UTC"))).toEqual(["2026-11-30T00:00:00.000Z", "2026-12-07T00:00:00.000Z"]);
  });

  it("start at the user's Monday midnight, not UTC's", () => {
    // Sunday 23:30 UTC is already Monday 08:30 in Tokyo, still Sunday in New York
    const now = new Date("2026-11-29T23:30:00Z");
    expect(iso(calendarPeriod("weekly", now, "Asia/Tokyo"))).toEqual(["2026-11-29T15:00:00.000Z", "2026-12-06T15:00:00.000Z"]);
    expect(iso(calendarPeriod("weekly", now, "America/New_York"))).toEqual(["2026-11-23T05:00:00.000Z", "2026-11-30T05:00:00.000Z"]);
  });

  it("last 167 hours across spring forward in Europe/Berlin (2026-03-29)", () => {
    const week = calendarPeriod("weekly", new Date("2026-03-29T12:00:00Z"), "Europe/Berlin");
    // Monday 23 March 00:00 CET (UTC+1) to Monday 30 March 00:00 CEST (UTC+2)
    expect(iso(week)).toEqual(["2026-03-22T23:00:00.000Z", "2026-03-29T22:00:00.000Z"]);
    expect(hours(week)).toBe(167);
    expect(iso(calendarPeriod("weekly", new Date("2026-03-29T22:00:00Z"), "Europe/Berlin"))[0]).toBe("2026-03-29T22:00:00.000Z");
  });

  it("last 169 hours across fall back in America/New_York (2026-11-01)", () => {
    const week = calendarPeriod("weekly", new Date("2026-11-01T12:00:00Z"), "America/New_York");
    // Monday 26 October 00:00 EDT (UTC−4) to Monday 2 November 00:00 EST (UTC−5)
    expect(iso(week)).toEqual(["2026-10-26T04:00:00.000Z", "2026-11-02T05:00:00.000Z"]);
    expect(hours(week)).toBe(169);
  });
});

describe("monthly periods", () => {
  it("run from the 1st 00:00 to the next 1st and change at the month boundary, across the year end", () => {
    expect(iso(calendarPeriod("monthly", new Date("2026-12-31T23:59:59.999Z"), "UTC"))).toEqual(["2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]);
    expect(iso(calendarPeriod("monthly", new Date("2027-01-01T00:00:00.000Z"), "UTC"))).toEqual(["2027-01-01T00:00:00.000Z", "2027-02-01T00:00:00.000Z"]);
  });

  it("follow the zone's offset on each side of a daylight-saving change", () => {
    // 1 November 2026 00:00 in New York is still EDT; 1 December is EST
    expect(iso(calendarPeriod("monthly", new Date("2026-11-01T03:59:59.999Z"), "America/New_York"))).toEqual(["2026-10-01T04:00:00.000Z", "2026-11-01T04:00:00.000Z"]);
    const november = calendarPeriod("monthly", new Date("2026-11-01T04:00:00Z"), "America/New_York");
    expect(iso(november)).toEqual(["2026-11-01T04:00:00.000Z", "2026-12-01T05:00:00.000Z"]);
    expect(hours(november)).toBe(30 * 24 + 1);
    const march = calendarPeriod("monthly", new Date("2026-03-15T12:00:00Z"), "Europe/Berlin");
    expect(iso(march)).toEqual(["2026-02-28T23:00:00.000Z", "2026-03-31T22:00:00.000Z"]);
    expect(hours(march)).toBe(31 * 24 - 1);
  });
});

describe("local midnight", () => {
  it("is the moment the clocks jump past it where midnight is skipped, and the first one where it repeats", () => {
    // America/Santiago: 6 September 2026 00:00 does not exist (to 01:00, UTC−4 → UTC−3)
    expect(startOfLocalDay(2026, 9, 6, "America/Santiago").toISOString()).toBe("2026-09-06T04:00:00.000Z");
    // 5 April 2026: the clocks go back from 00:00 to 23:00 on the 4th, so the 5th begins at 00:00 UTC−4
    expect(startOfLocalDay(2026, 4, 5, "America/Santiago").toISOString()).toBe("2026-04-05T04:00:00.000Z");
  });

  it("normalises day overflow (Monday of a week that began last month)", () => {
    expect(startOfLocalDay(2026, 12, 0, "UTC").toISOString()).toBe("2026-11-30T00:00:00.000Z");
  });
});

describe("current period", () => {
  it("is a custom budget's own bounds", () => {
    const bounds = { period_start: new Date("2026-01-01T00:00:00Z"), period_end: new Date("2026-02-15T00:00:00Z") };
    expect(iso(currentPeriod({ period: "custom", ...bounds }, new Date("2026-11-23T00:00:00Z"), "Europe/Berlin"))).toEqual(["2026-01-01T00:00:00.000Z", "2026-02-15T00:00:00.000Z"]);
  });
});

describe("time zone names", () => {
  it("accepts IANA names in their canonical spelling and refuses offsets and unknown names", () => {
    expect(parseTimeZone("Europe/Berlin", ["time_zone"])).toBe("Europe/Berlin");
    expect(parseTimeZone("europe/berlin", ["time_zone"])).toBe("Europe/Berlin");
    expect(parseTimeZone("UTC", ["time_zone"])).toBe("UTC");
    for (const bad of ["+01:00", "Mars/Olympus", "", 5, "Europe/Berlin; DROP"]) {
      let error: unknown;
      try {
        parseTimeZone(bad, ["time_zone"]);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("GEN-422-001");
    }
  });
});
