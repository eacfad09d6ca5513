import type { UsersDb } from "../db.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { walletAddressKey } from "./wallet-address-key.ts";

/** The only event type the wallet-claimed receiver acts on (spec 2.8). */
export const WALLET_CLAIMED_EVENT = "wallet.pregen_claimed";

export interface WalletClaimEvent {
  event_id: string;
  type: string;
  created_at: Date;
  wallet_id?: string | null;
  wallet_address?: string | null;
  wallet_type?: string | null;
  claimed_at?: Date | null;
}

/**
 * What became of one delivery: `recorded` the first time; every other outcome is a no-op the
 * receiver still answers 200 (spec 4.5 rule 2): `replay` (this event id was recorded before),
 * `already_claimed` (another event id claimed this wallet already), `unknown_wallet`,
 * `ignored_type`.
 */
export type WalletClaimOutcome = "recorded" | "replay" | "already_claimed" | "unknown_wallet" | "ignored_type";

/**
 * Records that the user took ownership of a wallet pregenerated for them (spec 6) and emits
 * `wallet.claimed`, nothing else. One transaction; the claim row's primary key is the event id and its
 * pregenerated wallet is unique, so concurrent deliveries of one event insert it once
 * (`ON CONFLICT DO NOTHING` waits for the first inserter, then does nothing). A database
 * failure throws, so the receiver answers 5xx and the provider retries.
 */
export async function recordWalletClaim(db: UsersDb, event: WalletClaimEvent): Promise<WalletClaimOutcome> {
  if (event.type !== WALLET_CLAIMED_EVENT) return "ignored_type";
  const { wallet_id, wallet_address, wallet_type, claimed_at } = event;
  if (!wallet_id || !wallet_address || !wallet_type || !claimed_at) throw new Error("record_wallet_claim: a wallet.pregen_claimed event needs its wallet fields");
  return db.$transaction(async (tx) => {
    if (await tx.walletClaim.findUnique({ where: { event_id: event.event_id }, select: { event_id: true } })) return "replay";
    // by the address its registrant proved control of; the provider wallet id, and rows from before proofs, were only their word
    const wallet = await tx.pregeneratedWallet.findFirst({ where: { address_key: walletAddressKey(wallet_address), proven_at: { not: null } } });
    if (!wallet) return "unknown_wallet";
    const inserted = await tx.walletClaim.createMany({
      data: [
        {
          event_id: event.event_id,
          pregenerated_wallet_id: wallet.id,
          user_id: wallet.user_id,
          provider_wallet_id: wallet_id,
          wallet_address,
          wallet_type,
          claimed_at,
          event_created_at: event.created_at,
        },
      ],
      skipDuplicates: true,
    });
    if (inserted.count === 0) {
      const byEvent = await tx.walletClaim.findUnique({ where: { event_id: event.event_id }, select: { event_id: true } });
      return byEvent ? "replay" : "already_claimed";
    }
    await tx.pregeneratedWallet.update({ where: { id: wallet.id }, data: { claimed_at } });
    await emitEvent(tx, {
      type: "wallet.claimed",
      user_id: wallet.user_id,
      resource: { type: "pregenerated_wallet", id: String(wallet.id) },
      data: { pregenerated_wallet_id: wallet.id, user_id: wallet.user_id, address: wallet.address, wallet_type: wallet.type, claimed_at: claimed_at.getTime() },
    });
    return "recorded";
  });
}
