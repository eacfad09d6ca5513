import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import { verificationSubmissionTrigger } from "../user/account-status.ts";

export interface KycStatusView {
  status: AccountStatus;
  applicant_id: string | null;
  provider: string | null;
  /** when the status last changed (ignored provider events do not count) */
  updated_at: Date;
  can_submit: boolean;
}

/** GET /v0/kyc/status: the account status with the provider applicant and the last change. */
export async function findKycStatus(db: UsersTx, options: { user_id: string }): Promise<KycStatusView> {
  const user = await db.user.findUnique({
    where: { id: options.user_id },
    select: {
      status: true,
      created_at: true,
      kyc_applicant: { select: { applicant_id: true, provider: true } },
      status_history: { where: { ignored: false }, orderBy: [{ changed_at: "desc" }, { id: "desc" }], take: 1, select: { changed_at: true } },
    },
  });
  if (!user) throw appError("USR-404-001");
  const status = user.status as AccountStatus;
  return {
    status,
    applicant_id: user.kyc_applicant?.applicant_id ?? null,
    provider: user.kyc_applicant?.provider ?? null,
    updated_at: user.status_history[0]?.changed_at ?? user.created_at,
    can_submit: verificationSubmissionTrigger(status) !== null,
  };
}
