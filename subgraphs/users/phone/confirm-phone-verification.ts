import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import { PHONE_CODE_LENGTH, PHONE_CODE_MAX_ATTEMPTS, attemptsRemaining, isWellFormedCode, phoneCodeMatches, phoneVerificationState } from "./phone-code.ts";
import { findPhoneState, latestPhoneVerification, type PhoneStateView } from "./phone-state.ts";

export interface ConfirmPhoneVerificationOptions {
  user_id: string;
  code: string;
  key: Uint8Array;
  now?: Date;
}

type Outcome = { kind: "none" | "expired" | "exhausted" } | { kind: "wrong"; remaining: number } | { kind: "verified"; state: PhoneStateView };

/**
 * Step two: checks the code against the newest verification. The attempt is counted first, in
 * one guarded update (not expired, attempts < max), so parallel guesses cannot exceed the limit; the comparison
 * is constant-time. On success the user's phone_number and phone_verified_at are set in the same
 * transaction. A wrong guess is committed (it counts) and then reported as PHN-400-001 with the
 * attempts left; expired or used-up codes are PHN-410-001; no code, or one already used,
 * PHN-404-001.
 */
export async function confirmPhoneVerification(db: UsersDb, options: ConfirmPhoneVerificationOptions): Promise<PhoneStateView> {
  const code = options.code.trim();
  if (!isWellFormedCode(code)) throw validationError(["code"], `Value error, the code is ${PHONE_CODE_LENGTH} digits`, options.code);
  const now = options.now ?? new Date();
  const { user_id } = options;

  const outcome = await db.$transaction(async (tx): Promise<Outcome> => {
    const row = await latestPhoneVerification(tx, user_id);
    if (!row || row.verified_at) return { kind: "none" };
    // the attempt counts before the code is compared, and only while the code is alive: this one
    // guarded update is what enforces expiry and the attempt limit, for parallel guesses too
    const counted = await tx.phoneVerification.updateMany({
      where: { id: row.id, verified_at: null, expires_at: { gt: now }, attempts: { lt: PHONE_CODE_MAX_ATTEMPTS } },
      data: { attempts: { increment: 1 } },
    });
    if (counted.count === 0) {
      const state = phoneVerificationState(row, now);
      return { kind: state === "expired" ? "expired" : "exhausted" };
    }
    if (!phoneCodeMatches(options.key, row.id, code, row.code_hash)) {
      const { attempts } = await tx.phoneVerification.findUniqueOrThrow({ where: { id: row.id }, select: { attempts: true } });
      return { kind: "wrong", remaining: attemptsRemaining(attempts) };
    }
    await tx.phoneVerification.update({ where: { id: row.id }, data: { verified_at: now } });
    await tx.user.update({ where: { id: user_id }, data: { phone_number: row.phone_number, phone_verified_at: now } });
    return { kind: "verified", state: await findPhoneState(tx, { user_id, now }) };
  });

  switch (outcome.kind) {
    case "verified":
      return outcome.state;
    case "wrong":
      throw appError(
        "PHN-400-001",
        outcome.remaining > 0
          ? `The code is wrong; ${outcome.remaining} attempt${outcome.remaining === 1 ? "" : "s"} remaining.`
          : "The code is wrong; no attempts remain, request a new code.",
      );
    case "expired":
      throw appError("PHN-410-001", "The code has expired; request a new one.");
    case "exhausted":
      throw appError("PHN-410-001", "The code has used up its attempts; request a new one.");
    case "none":
      throw appError("PHN-404-001");
  }
}
