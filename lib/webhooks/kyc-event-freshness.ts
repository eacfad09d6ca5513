/** How far a KYC event's createdAtMs may be from the server clock, either way, unless configured. */
export const DEFAULT_KYC_WEBHOOK_TOLERANCE_SECONDS = 300;

// Sumsub writes createdAtMs as "2024-05-06 12:34:56.789" in UTC (despite the name, not a number);
// ISO 8601 with an offset is accepted too.
const EVENT_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:?\d{2})?$/;

/** The instant of a provider event's `createdAtMs`, or undefined when it is not a timestamp. */
export function kycEventTime(createdAtMs: string): Date | undefined {
  const match = EVENT_TIME.exec(createdAtMs.trim());
  if (!match) return undefined;
  const [, date, time, zone] = match;
  const [whole, fraction = ""] = time!.split(".");
  // Date keeps milliseconds only
  const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, "0")}` : "";
  const instant = new Date(`${date}T${whole}${millis}${zone ?? "Z"}`);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * True when the event was created within `toleranceSeconds` of `now`, in either direction
 * (exactly the tolerance passes). The signature covers createdAtMs, so a captured delivery cannot
 * be replayed after the window; an unreadable timestamp is never fresh.
 */
export function isFreshKycEvent(createdAtMs: string, now: Date, toleranceSeconds: number): boolean {
  const created = kycEventTime(createdAtMs);
  return created !== undefined && Math.abs(now.getTime() - created.getTime()) <= toleranceSeconds * 1000;
}
