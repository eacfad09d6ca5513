import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { FinanceDb } from "../db.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import { emitCardCreated } from "./card-events.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";
import { accountHolder } from "./account-holder.ts";
import type { CreateCardInput } from "../types/card.ts";
import { applyControls, NO_CONTROLS } from "./card-controls.ts";
import { requireIssuer, type CardIssuer } from "./card-issuer.ts";
import { cardView, findOwnCardRow, type CardView } from "./card-view.ts";
import { CARD_DECIMALS, requireCardCurrency, resolveSettlement } from "./card-settlement.ts";

export interface CreateCardServices {
  db: FinanceDb;
  users: FederatedClient;
  /** CARD_ISSUER; none: CRD-503-001 */
  cardIssuer: CardIssuer | undefined;
  cardCipher: CardDataCipher;
}

export type CreateCardOptions = CreateCardInput & { user_id: string; idempotency_key?: string | null; trace_id: string };

/**
 * Issues a card to a KYC-approved user (CRD-403-001 otherwise) on a funding source of theirs.
 * Recorded `pending`; a virtual card the issuer confirms is `active` at once (both steps in its
 * status_history), a physical one stays `pending` until its holder activates it and needs a
 * shipping address (a physical card without one, or a virtual card with one, is 422). The number
 * and CVV are sealed before they are stored; the response never carries them. Honours the
 * Idempotency-Key: a retry answers the first card, and the issuer is asked once. Its card.created
 * event is written with it.
 */
export async function createCard(services: CreateCardServices, options: CreateCardOptions): Promise<CardView> {
  const issuer = requireIssuer(services.cardIssuer);
  const { type } = options;
  const fundingType = options.funding_source.type;
  const currency = requireCardCurrency(options.currency, ["currency"]);
  const controls = applyControls(NO_CONTROLS, options.controls, CARD_DECIMALS);
  const shipping = options.shipping_address ?? null;
  if (type === "physical" && !shipping) throw validationError(["shipping_address"], "A physical card needs a shipping address", null, "missing");
  if (type === "virtual" && shipping) throw validationError(["shipping_address"], "A virtual card is not shipped", shipping, "extra_forbidden");

  const holder = await accountHolder(services.users, options.user_id, options.trace_id);
  if (holder.status !== "approved") throw appError("CRD-403-001", `Cards need an approved identity verification; yours is ${holder.status}.`);

  const args = { type, funding_source: { type: fundingType, id: options.funding_source.id }, currency, nickname: options.nickname ?? null, controls, shipping_address: shipping };
  await resolveSettlement(services.db, services.users, { user_id: options.user_id, funding_source: args.funding_source, currency, trace_id: options.trace_id, id_loc: ["funding_source", "id"] });
  return withIdempotency<CardView>(
    services.db,
    { user_id: options.user_id, key: options.idempotency_key, operation: "create_card", args, snapshot: jsonSnapshot, restore: fromJsonSnapshot<CardView> },
    async (tx) => {
      const id = newId("crd");
      const issued = await issuer.issue({ card_id: id, user_id: options.user_id, type, currency, shipping_address: shipping });
      const now = new Date();
      const path = issued.confirmed ? (["pending", "active"] as const) : (["pending"] as const);
      const card = await tx.card.create({
        data: {
          id,
          user_id: options.user_id,
          type,
          status: path.at(-1)!,
          nickname: args.nickname,
          currency,
          funding_source_type: fundingType,
          funding_source_id: options.funding_source.id,
          ...controls,
          issuer: issuer.name,
          issuer_card_id: issued.issuer_card_id,
          last_four: issued.number.slice(-4),
          expiry_month: issued.expiry_month,
          expiry_year: issued.expiry_year,
          number_encrypted: services.cardCipher.seal(issued.number),
          cvv_encrypted: services.cardCipher.seal(issued.cvv),
          ...(shipping && { shipping_address: shipping as object }),
          created_at: now,
          updated_at: now,
          status_history: { create: path.map((to, i) => ({ from: i === 0 ? null : path[i - 1]!, to, changed_at: now })) },
        },
      });
      await emitCardCreated(tx, card);
      return cardView(tx, await findOwnCardRow(tx, options.user_id, id));
    },
  );
}
