import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";
import { attemptsRemaining, phoneVerificationState } from "./phone-code.ts";

export interface PhoneVerificationChallengeView {
  phone_number: string;
  expires_at: Date;
  attempts_remaining: number;
}

export interface PhoneStateView {
  phone_number: string | null;
  verified: boolean;
  verified_at: Date | null;
  pending: PhoneVerificationChallengeView | null;
}

/** The newest verification of the user: a new code supersedes every older one. */
export function latestPhoneVerification(db: UsersTx, userId: string) {
  return db.phoneVerification.findFirst({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }] });
}

/** The user's verified number, and the code waiting to be confirmed, if one still can be. */
export async function findPhoneState(db: UsersTx, options: { user_id: string; now?: Date }): Promise<PhoneStateView> {
  const now = options.now ?? new Date();
  const user = await db.user.findUnique({ where: { id: options.user_id }, select: { phone_number: true, phone_verified_at: true } });
  if (!user) throw appError("USR-404-001");
  const latest = await latestPhoneVerification(db, options.user_id);
  const pending =
    latest && phoneVerificationState(latest, now) === "pending"
      ? { phone_number: latest.phone_number, expires_at: latest.expires_at, attempts_remaining: attemptsRemaining(latest.attempts) }
      : null;
  const verified = user.phone_number !== null && user.phone_verified_at !== null;
  return { phone_number: user.phone_number, verified, verified_at: verified ? user.phone_verified_at : null, pending };
}
