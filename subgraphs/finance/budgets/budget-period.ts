import { validationError } from "../../../lib/errors/app-error.ts";
import type { BudgetPeriod } from "../../../lib/vocabulary/budgets.ts";

/** The default time zone of budget periods while a user has set none. */
export const DEFAULT_TIME_ZONE = "UTC";

/** A half-open interval of instants: `start` inclusive, `end` exclusive. */
export interface PeriodBounds {
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", weekday: "short" });
    formatters.set(timeZone, format);
  }
  return format;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall clock in `timeZone` at `instant` (month 1–12, weekday 0 = Sunday). */
export function wallClock(instant: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday!),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - wholeSecond;
}

/**
 * The first instant of the calendar day `year-month-day` in `timeZone`: its local midnight, the
 * earlier one if the clocks went back over midnight, or the moment the clocks jumped past it when
 * midnight did not happen there that day. `Date.UTC` normalises day overflow (day 0, day 32).
 */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  const target = new Date(wall);
  // the offsets a day either side bracket any one transition near this midnight
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [wall - before, wall - after]
    .filter((instant) => {
      const local = wallClock(instant, timeZone);
      return local.year === target.getUTCFullYear() && local.month === target.getUTCMonth() + 1 && local.day === target.getUTCDate() && local.hour === 0 && local.minute === 0 && local.second === 0;
    })
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - before);
}

/**
 * The period containing `now` in `timeZone`: weekly from Monday 00:00 to the next Monday 00:00,
 * monthly from the 1st 00:00 to the next 1st 00:00 (spec 2.10), local midnights in the zone, so a
 * week crossing a daylight-saving change is 167 or 169 hours long.
 */
export function calendarPeriod(period: Exclude<BudgetPeriod, "custom">, now: Date, timeZone: string): PeriodBounds {
  const local = wallClock(now.getTime(), timeZone);
  if (period === "monthly") {
    return { start: startOfLocalDay(local.year, local.month, 1, timeZone), end: startOfLocalDay(local.year, local.month + 1, 1, timeZone) };
  }
  const sinceMonday = (local.weekday + 6) % 7;
  return { start: startOfLocalDay(local.year, local.month, local.day - sinceMonday, timeZone), end: startOfLocalDay(local.year, local.month, local.day - sinceMonday + 7, timeZone) };
}

/** A budget's current period: its own bounds when custom, else the calendar period around `now`. */
export function currentPeriod(budget: { period: BudgetPeriod; period_start: Date | null; period_end: Date | null }, now: Date, timeZone: string): PeriodBounds {
  if (budget.period === "custom") return { start: budget.period_start!, end: budget.period_end! };
  return calendarPeriod(budget.period, now, timeZone);
}

/**
 * `value` as an IANA time zone name known to this runtime's Intl data, in its canonical spelling
 * (`europe/berlin` → `Europe/Berlin`); offsets such as `+01:00` are refused because they have no
 * daylight-saving rules. Anything else is a GEN-422-001 item at `loc`.
 */
export function parseTimeZone(value: unknown, loc: (string | number)[]): string {
  if (typeof value === "string" && /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value) && value.length <= 64) {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      // not a zone Intl knows: refused below
    }
  }
  throw validationError(loc, "Input should be an IANA time zone name such as \"Europe/Berlin\" or \"UTC\"", value, "time_zone");
}
