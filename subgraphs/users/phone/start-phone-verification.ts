import { AppError, appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import {
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_TTL_MS,
  PHONE_CODE_WINDOW_MS,
  codeRateLimit,
  generatePhoneCode,
  hashPhoneCode,
  normalisePhoneNumber,
  verificationSms,
} from "./phone-code.ts";
import type { PhoneVerificationChallengeView } from "./phone-state.ts";
import type { SmsSender } from "./sms-sender.ts";

export interface StartPhoneVerificationOptions {
  user_id: string;
  phone_number: string;
  sms: SmsSender;
  /** the deployment's phone-code HMAC key (derivePhoneCodeKey) */
  key: Uint8Array;
  now?: Date;
  /** tests pin the code; production draws it from the CSPRNG */
  generateCode?: () => string;
}

// The SMS is sent inside the transaction; leave it time to answer.
const TRANSACTION_TIMEOUT_MS = 20_000;

/** Serialises code requests of one user, so concurrent requests cannot slip past the rate limit. */
async function lockUserPhone(tx: UsersTx, userId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text`, `phone:${userId}`);
}

/**
 * Step one of phone verification: stores a new code (as an HMAC, never in clear) valid for ten
 * minutes and sends it by SMS. At most PHONE_CODES_PER_WINDOW codes per user and rolling hour
 * (PHN-429-001 with Retry-After). The SMS is sent last inside the transaction: when sending fails
 * the row is rolled back (PHN-502-001) and the failed attempt does not count against the limit.
 * A new code supersedes any earlier one.
 */
export async function startPhoneVerification(db: UsersDb, options: StartPhoneVerificationOptions): Promise<PhoneVerificationChallengeView> {
  const phone_number = normalisePhoneNumber(options.phone_number);
  const now = options.now ?? new Date();
  const code = (options.generateCode ?? generatePhoneCode)();
  return db.$transaction(
    async (tx) => {
      await lockUserPhone(tx, options.user_id);
      const recent = await tx.phoneVerification.findMany({
        where: { user_id: options.user_id, created_at: { gt: new Date(now.getTime() - PHONE_CODE_WINDOW_MS) } },
        select: { created_at: true },
      });
      const limit = codeRateLimit(
        recent.map((r) => r.created_at),
        now,
      );
      if (!limit.allowed)
        throw appError("PHN-429-001", `Too many codes requested in the last hour; retry in ${limit.retry_after_seconds} seconds.`, {
          retryAfter: limit.retry_after_seconds,
        });

      const id = newId("phv", now.getTime());
      const expires_at = new Date(now.getTime() + PHONE_CODE_TTL_MS);
      await tx.phoneVerification.create({
        data: { id, user_id: options.user_id, phone_number, code_hash: hashPhoneCode(options.key, id, code), expires_at, created_at: now },
      });
      try {
        await options.sms.send({ to: phone_number, body: verificationSms(code) });
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw appError("PHN-502-001", undefined, { cause: error });
      }
      return { phone_number, expires_at, attempts_remaining: PHONE_CODE_MAX_ATTEMPTS };
    },
    { timeout: TRANSACTION_TIMEOUT_MS },
  );
}
