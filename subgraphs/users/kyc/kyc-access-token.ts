import { AppError, appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import type { KycProvider } from "./kyc-provider.ts";

export interface KycAccessTokenView {
  token: string;
  expires_at: Date;
  applicant_id: string;
  provider: string;
}

/** A provider call: anything but a catalogue error becomes KYC-502-001, the cause kept for logs. */
async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw appError("KYC-502-001", undefined, { cause: error });
  }
}

/**
 * POST /v0/kyc/access-token: makes sure the user has a provider applicant (externalUserId = our
 * user id; one per user) and returns a short-lived token for the provider's web SDK.
 *
 * Race-safe: the applicant row is inserted with ON CONFLICT DO NOTHING and read back, so of two
 * concurrent first calls both answer with the applicant that was stored first. Refused for a
 * rejected user: rejection is terminal (spec 3.1), there is nothing left to upload.
 */
export async function issueKycAccessToken(db: UsersDb, options: { user_id: string; provider: KycProvider }): Promise<KycAccessTokenView> {
  const { user_id, provider } = options;
  const user = await db.user.findUnique({ where: { id: user_id }, select: { status: true, kyc_applicant: true } });
  if (!user) throw appError("USR-404-001");
  if (user.status === "rejected") throw appError("KYC-409-001", "Verification was rejected; rejection is final, so no new verification session can be opened.");

  let applicant = user.kyc_applicant;
  if (!applicant) {
    const created = await callProvider(() => provider.ensureApplicant({ user_id }));
    await db.kycApplicant.createMany({ data: [{ user_id, provider: provider.name, applicant_id: created.applicant_id }], skipDuplicates: true });
    applicant = await db.kycApplicant.findUniqueOrThrow({ where: { user_id } });
  }
  const { applicant_id } = applicant;
  const token = await callProvider(() => provider.accessToken({ user_id, applicant_id }));
  return { token: token.token, expires_at: token.expires_at, applicant_id, provider: applicant.provider };
}
