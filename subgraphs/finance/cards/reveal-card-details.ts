import { verifyMessage, type Address, type Hex } from "viem";
import { CARD_REVEAL_WINDOW_MS, CARD_REVEALS_PER_WINDOW } from "../../../lib/contracts/cards.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { CardRevealMethod } from "../../../lib/vocabulary/cards.ts";
import type { FinanceDb } from "../db.ts";
import type { RevealCardDetailsInput } from "../types/card-secure-details.ts";
import { findOwnCardRow } from "./card-view.ts";
import { lockKey } from "../../../lib/db/advisory-lock.ts";

/** The only answer that ever carries a card's number and CVV. */
export interface CardDetailsView {
  number: string;
  cvv: string;
  expiry_month: number;
  expiry_year: number;
}

export type RevealCardDetailsOptions = RevealCardDetailsInput & {
  user_id: string;
  card_id: string;
  /** the client as the listener saw it, for the audit trail */
  ip?: string | null;
  user_agent?: string | null;
  now?: Date;
};

const METHOD: CardRevealMethod = "eip191";
const USER_AGENT_MAX = 512;

/** When the oldest reveal still counting leaves the window: null while another reveal is allowed. */
export function revealRetryAfterSeconds(recent: readonly Date[], now: Date): number | null {
  const windowStart = now.getTime() - CARD_REVEAL_WINDOW_MS;
  const inWindow = recent.map((d) => d.getTime()).filter((t) => t > windowStart).sort((a, b) => a - b);
  if (inWindow.length < CARD_REVEALS_PER_WINDOW) return null;
  const frees = inWindow[inWindow.length - CARD_REVEALS_PER_WINDOW]! + CARD_REVEAL_WINDOW_MS;
  return Math.max(1, Math.ceil((frees - now.getTime()) / 1000));
}

async function signedBy(address: string, message: string, signature: string): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) return false;
  return verifyMessage({ address: address as Address, message, signature: signature as Hex }).catch(() => false);
}

/**
 * Step two: the card's number, CVV and expiry for a challenge of this user and card, unexpired,
 * unused, and signed (EIP-191) by the address it was issued to; anything else CRD-403-002. The
 * challenge is spent by one conditional update (`used_at IS NULL`), so a replay or a concurrent
 * second answer is refused too. Each reveal is recorded (the audit trail the user lists) in the
 * same transaction that spends the challenge, and at most CARD_REVEALS_PER_WINDOW count per card
 * and rolling hour (CRD-429-001; the challenge then stays unspent until it expires).
 */
export async function revealCardDetails(services: { db: FinanceDb; cardCipher: CardDataCipher }, options: RevealCardDetailsOptions): Promise<CardDetailsView> {
  const now = options.now ?? new Date();
  const card = await findOwnCardRow(services.db, options.user_id, options.card_id);
  if (card.status === "closed") throw appError("CRD-409-001", "The card is closed; its details can no longer be revealed.");

  const challenge = await services.db.cardSecureChallenge.findFirst({ where: { id: options.challenge_id, user_id: options.user_id, card_id: card.id } });
  if (!challenge) throw appError("CRD-403-002", "No challenge with this id was issued for this card; ask for one first.");
  if (challenge.used_at) throw appError("CRD-403-002", "This challenge was already used; ask for a new one.");
  if (challenge.expires_at.getTime() <= now.getTime()) throw appError("CRD-403-002", "This challenge expired; ask for a new one.");
  if (!(await signedBy(challenge.address, challenge.message, options.signature)))
    throw appError("CRD-403-002", `The signature is not ${challenge.address}'s EIP-191 signature of the challenge's message.`);

  return services.db.$transaction(async (tx) => {
    // one reveal of a card at a time, so concurrent ones cannot slip past the limit together
    await lockKey(tx, `card-reveal:${card.id}`);
    const recent = await tx.cardReveal.findMany({ where: { card_id: card.id, created_at: { gt: new Date(now.getTime() - CARD_REVEAL_WINDOW_MS) } }, select: { created_at: true } });
    const retryAfter = revealRetryAfterSeconds(
      recent.map((r) => r.created_at),
      now,
    );
    if (retryAfter !== null)
      throw appError("CRD-429-001", `At most ${CARD_REVEALS_PER_WINDOW} reveals of a card's details per hour; retry in ${retryAfter} seconds.`, { retryAfter });

    const { count } = await tx.cardSecureChallenge.updateMany({ where: { id: challenge.id, used_at: null, expires_at: { gt: now } }, data: { used_at: now } });
    if (count === 0) throw appError("CRD-403-002", "This challenge was already used; ask for a new one.");
    await tx.cardReveal.create({
      data: {
        id: newId("crv", now.getTime()),
        card_id: card.id,
        user_id: options.user_id,
        challenge_id: challenge.id,
        method: METHOD,
        ip: options.ip ?? null,
        user_agent: options.user_agent?.slice(0, USER_AGENT_MAX) ?? null,
        created_at: now,
      },
    });
    return {
      number: services.cardCipher.open(card.number_encrypted),
      cvv: services.cardCipher.open(card.cvv_encrypted),
      expiry_month: card.expiry_month,
      expiry_year: card.expiry_year,
    };
  });
}
