import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import { nextAccountStatus, verificationSubmissionTrigger } from "../user/account-status.ts";
import { changeAccountStatus } from "./account-transition.ts";
import { findKycStatus, type KycStatusView } from "./kyc-status.ts";

const NOT_SUBMITTABLE: Partial<Record<AccountStatus, string>> = {
  in_progress: "Documents were already submitted; the verification is under review.",
  approved: "The user is already verified.",
  rejected: "Verification was rejected; rejection is final and cannot be retried.",
};

/**
 * POST /v0/kyc/submissions: the user has submitted documents in the provider SDK. pending →
 * in_progress (kyc_started) or retry → in_progress (kyc_resubmitted), with its status_history row,
 * in one transaction. Needs the applicant that POST /v0/kyc/access-token creates. The status
 * update is guarded on the status read, so concurrent submissions apply exactly once; the
 * others get KYC-409-001.
 */
export async function submitKyc(db: UsersDb, options: { user_id: string }): Promise<KycStatusView> {
  const { user_id } = options;
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: user_id }, select: { status: true, kyc_applicant: { select: { applicant_id: true } } } });
    if (!user) throw appError("USR-404-001");
    const from = user.status as AccountStatus;
    const trigger = verificationSubmissionTrigger(from);
    if (trigger === null) throw appError("KYC-409-001", NOT_SUBMITTABLE[from]);
    if (!user.kyc_applicant) throw appError("KYC-409-002");
    const to = nextAccountStatus(from, trigger)!;
    if (!(await changeAccountStatus(tx, { user_id, from, to, cause: trigger })))
      throw appError("KYC-409-001", "The verification status changed while this submission was processed; it was not applied.");
    return findKycStatus(tx, { user_id });
  });
}
