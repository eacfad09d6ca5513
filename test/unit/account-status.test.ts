import { describe, expect, it } from "vitest";
import { ACCOUNT_STATUSES, type AccountStatus } from "../../lib/vocabulary/kyc.ts";
import { nextAccountStatus, REGISTRATION_STATUS, verificationSubmissionTrigger, type AccountTrigger } from "../../subgraphs/users/user/account-status.ts";

const TRIGGERS: AccountTrigger[] = ["kyc_started", "kyc_resubmitted", "kyc_approved", "kyc_rejected", "kyc_retry_requested"];

/** Spec 3.1, row by row: (from, trigger) → to. Nothing else is a legal move. */
const ALLOWED: [AccountStatus, AccountTrigger, AccountStatus][] = [
  ["pending", "kyc_started", "in_progress"], // user starts verification, documents submitted
  ["in_progress", "kyc_approved", "approved"], // applicantReviewed GREEN
  ["in_progress", "kyc_rejected", "rejected"], // applicantReviewed RED
  ["in_progress", "kyc_retry_requested", "retry"], // applicantPending
  ["retry", "kyc_resubmitted", "in_progress"], // user resubmits
];

describe("account status table (spec 3.1)", () => {
  it("has exactly the five statuses of spec 2.2, and registration starts in pending", () => {
    expect([...ACCOUNT_STATUSES].sort()).toEqual(["approved", "in_progress", "pending", "rejected", "retry"]);
    expect(REGISTRATION_STATUS).toBe("pending");
  });

  it.each(ALLOWED)("%s --%s--> %s", (from, trigger, to) => {
    expect(nextAccountStatus(from, trigger)).toBe(to);
  });

  const refused = ACCOUNT_STATUSES.flatMap((from) => TRIGGERS.map((trigger) => [from, trigger] as const)).filter(
    ([from, trigger]) => !ALLOWED.some(([f, t]) => f === from && t === trigger),
  );

  it("refuses every other (status, trigger) pair", () => {
    expect(refused).toHaveLength(ACCOUNT_STATUSES.length * TRIGGERS.length - ALLOWED.length);
  });

  it.each(refused)("refuses %s --%s-->", (from, trigger) => {
    expect(nextAccountStatus(from, trigger)).toBeNull();
  });

  it("makes rejected terminal: no trigger leads anywhere, so the user cannot retry", () => {
    for (const trigger of TRIGGERS) expect(nextAccountStatus("rejected", trigger)).toBeNull();
  });

  it("never leaves approved", () => {
    for (const trigger of TRIGGERS) expect(nextAccountStatus("approved", trigger)).toBeNull();
  });

  it("reaches approved and rejected only through review (in_progress), including after a retry", () => {
    for (const from of ACCOUNT_STATUSES)
      for (const trigger of TRIGGERS) {
        const to = nextAccountStatus(from, trigger);
        if (to === "approved" || to === "rejected") expect(from).toBe("in_progress");
      }
    let status: AccountStatus = "pending";
    for (const trigger of ["kyc_started", "kyc_retry_requested", "kyc_resubmitted", "kyc_approved"] as AccountTrigger[]) status = nextAccountStatus(status, trigger)!;
    expect(status).toBe("approved");
  });
});

describe("verificationSubmissionTrigger", () => {
  it("starts from pending, resubmits from retry, and allows no submission otherwise", () => {
    expect(verificationSubmissionTrigger("pending")).toBe("kyc_started");
    expect(verificationSubmissionTrigger("retry")).toBe("kyc_resubmitted");
    for (const status of ["in_progress", "approved", "rejected"] as AccountStatus[]) expect(verificationSubmissionTrigger(status)).toBeNull();
  });

  it("always names a trigger the table allows from that status", () => {
    for (const status of ACCOUNT_STATUSES) {
      const trigger = verificationSubmissionTrigger(status);
      if (trigger) expect(nextAccountStatus(status, trigger)).toBe("in_progress");
    }
  });
});
