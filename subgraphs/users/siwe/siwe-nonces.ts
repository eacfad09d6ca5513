import type { UsersTx } from "../db.ts";
import { generateSiweNonce, nonceProblem, SIWE_NONCE_TTL_MS, type NonceProblem } from "./siwe-rules.ts";

/**
 * The `users.siwe_nonces` table: a nonce is issued (stored with its expiry), looked at, and
 * consumed exactly once. Rows past their expiry are useless (an unknown nonce and an expired one
 * are refused alike), so issuing also purges them now and then.
 */

/** Expired rows are deleted at most this often per process, by whichever issue comes along. */
const PURGE_INTERVAL_MS = 60_000;
let lastPurge = 0;

export interface IssueNonceOptions {
  now?: Date;
  ttlMs?: number;
}

export async function issueSiweNonce(db: UsersTx, options: IssueNonceOptions = {}): Promise<{ nonce: string; expires_at: Date }> {
  const now = options.now ?? new Date();
  const expires_at = new Date(now.getTime() + (options.ttlMs ?? SIWE_NONCE_TTL_MS));
  const nonce = generateSiweNonce();
  await db.siweNonce.create({ data: { nonce, expires_at, created_at: now } });
  if (Math.abs(now.getTime() - lastPurge) >= PURGE_INTERVAL_MS) {
    lastPurge = now.getTime();
    await db.siweNonce.deleteMany({ where: { expires_at: { lt: now } } });
  }
  return { nonce, expires_at };
}

/** Why the nonce cannot be used now (a read: the decision is `consumeSiweNonce`'s), or null. */
export async function siweNonceProblem(db: UsersTx, nonce: string, now: Date): Promise<NonceProblem | null> {
  const row = await db.siweNonce.findUnique({ where: { nonce }, select: { expires_at: true, used_at: true } });
  return nonceProblem(row, now);
}

/**
 * Marks the nonce used, in one conditional UPDATE: of any number of concurrent callers with the
 * same nonce exactly one sees `true`. False: unknown, expired or already used.
 */
export async function consumeSiweNonce(db: UsersTx, nonce: string, now: Date): Promise<boolean> {
  const updated = await db.$executeRawUnsafe(
    `UPDATE "users"."siwe_nonces" SET used_at = $2 WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2`,
    nonce,
    now,
  );
  return updated === 1;
}
