import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { UsersDb } from "../db.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import { nextAccountStatus, type AccountTrigger } from "../user/account-status.ts";
import { changeAccountStatus } from "./account-transition.ts";

/** The account triggers a KYC provider event maps to (spec 6): applicantReviewed GREEN/RED, applicantPending. */
export type KycProviderTrigger = Extract<AccountTrigger, "kyc_approved" | "kyc_rejected" | "kyc_retry_requested">;

/** The status each provider event asks for; recorded as `to` on an ignored row, which is never applied. */
const REQUESTED_STATUS: Record<KycProviderTrigger, AccountStatus> = {
  kyc_approved: "approved",
  kyc_rejected: "rejected",
  kyc_retry_requested: "retry",
};

export interface KycProviderEvent {
  applicant_id: string;
  /** the provider's event id: the de-duplication key */
  event_id: string;
  trigger: KycProviderTrigger;
  /**
   * The provider's externalUserId, when it sent one: our user id. The applicant decides whose
   * event it is; an externalUserId naming another user makes the event a no-op (nothing written).
   */
  external_user_id?: string | null;
}

export type KycProviderEventOutcome =
  | { outcome: "applied"; user_id: string; from: AccountStatus; to: AccountStatus }
  | { outcome: "ignored"; user_id: string; status: AccountStatus }
  | { outcome: "duplicate" }
  | { outcome: "unknown_applicant" }
  | { outcome: "user_mismatch"; user_id: string };

// Each round loses only to another change of the same user's status; three in a row is not a race.
const MAX_ROUNDS = 3;

/**
 * Applies a KYC provider event (the webhook receiver, a later issue, calls this). Through the
 * state table of spec 3.1: an allowed move is applied with its status_history row (cause = the
 * trigger, event_id set); a move the table does not allow is recorded with `ignored: true` and
 * never applied. A replayed event id is a no-op (the unique index on status_history.event_id
 * settles concurrent deliveries), and so is an applicant we do not know or an event whose
 * externalUserId is not the applicant's user.
 */
export async function applyKycProviderEvent(db: UsersDb, event: KycProviderEvent): Promise<KycProviderEventOutcome> {
  const applicant = await db.kycApplicant.findUnique({ where: { applicant_id: event.applicant_id }, select: { user_id: true } });
  if (!applicant) return { outcome: "unknown_applicant" };
  const { user_id } = applicant;
  if (event.external_user_id != null && event.external_user_id !== user_id) return { outcome: "user_mismatch", user_id };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    try {
      const result = await db.$transaction(async (tx): Promise<KycProviderEventOutcome | null> => {
        if (await tx.statusChange.findUnique({ where: { event_id: event.event_id }, select: { id: true } })) return { outcome: "duplicate" };
        const { status } = await tx.user.findUniqueOrThrow({ where: { id: user_id }, select: { status: true } });
        const from = status as AccountStatus;
        const to = nextAccountStatus(from, event.trigger);
        if (to === null) {
          await tx.statusChange.create({
            data: { user_id, from, to: REQUESTED_STATUS[event.trigger], cause: event.trigger, event_id: event.event_id, ignored: true },
          });
          return { outcome: "ignored", user_id, status: from };
        }
        // null: the status moved since it was read; nothing was written, decide again
        if (!(await changeAccountStatus(tx, { user_id, from, to, cause: event.trigger, event_id: event.event_id }))) return null;
        return { outcome: "applied", user_id, from, to };
      });
      if (result) return result;
    } catch (error) {
      // a concurrent delivery of the same event id committed first
      if (isUniqueViolation(error)) return { outcome: "duplicate" };
      throw error;
    }
  }
  throw new Error(`KYC event ${event.event_id}: the user's status kept changing; not applied, the provider should retry`);
}
