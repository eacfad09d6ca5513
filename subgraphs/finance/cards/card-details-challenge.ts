import { CARD_DETAILS_CHALLENGE_TTL_MS } from "../../../lib/contracts/cards.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { newId } from "../../../lib/ids.ts";
import type { FinanceDb } from "../db.ts";
import { accountHolder } from "./account-holder.ts";
import { findOwnCardRow } from "./card-view.ts";

export interface CardDetailsChallengeView {
  id: string;
  card_id: string;
  /** the primary EOA that must sign */
  address: string;
  /** the exact EIP-191 text to sign (`personal_sign`) */
  message: string;
  expires_at: Date;
}

/**
 * The text the primary EOA signs: it names the platform (so a message made for another site is
 * useless here), the card by its last four, the challenge and its expiry, so a user signing it in
 * their wallet sees what they unlock.
 */
export function cardDetailsMessage(input: { host: string; last_four: string; card_id: string; challenge_id: string; address: string; expires_at: Date }): string {
  return [
    `${input.host} asks you to reveal the number, CVV and expiry of your card ending in ${input.last_four}.`,
    "Sign only if you started this yourself; the details are shown once.",
    "",
    `Card: ${input.card_id}`,
    `Address: ${input.address}`,
    `Challenge ID: ${input.challenge_id}`,
    `Expires At: ${input.expires_at.toISOString()}`,
  ].join("\n");
}

export interface CreateCardDetailsChallengeOptions {
  user_id: string;
  card_id: string;
  /** the platform's host (PUBLIC_BASE_URL), named in the message */
  host: string;
  trace_id: string;
  now?: Date;
}

/**
 * Step one of revealing a card's details: a single-use challenge for the user's own card (another
 * user's: CRD-404-001; a closed card: CRD-409-001) addressed to their primary EOA, as the users
 * subgraph knows it now. Asking again makes another challenge; each stands alone until it expires.
 */
export async function createCardDetailsChallenge(services: { db: FinanceDb; users: FederatedClient }, options: CreateCardDetailsChallengeOptions): Promise<CardDetailsChallengeView> {
  const card = await findOwnCardRow(services.db, options.user_id, options.card_id);
  if (card.status === "closed") throw appError("CRD-409-001", "The card is closed; its details can no longer be revealed.");
  const holder = await accountHolder(services.users, options.user_id, options.trace_id);
  const now = options.now ?? new Date();
  const id = newId("cdc", now.getTime());
  const expires_at = new Date(now.getTime() + CARD_DETAILS_CHALLENGE_TTL_MS);
  const address = holder.primary_eoa_address;
  const message = cardDetailsMessage({ host: options.host, last_four: card.last_four, card_id: card.id, challenge_id: id, address, expires_at });
  await services.db.cardSecureChallenge.create({ data: { id, card_id: card.id, user_id: options.user_id, address, message, expires_at, created_at: now } });
  return { id, card_id: card.id, address, message, expires_at };
}
