import { appError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { FinanceDb } from "../db.ts";
import type { CardFundingSourceInput } from "../types/card.ts";
import { cardView, findOwnCardRow, type CardView } from "./card-view.ts";
import { resolveSettlement, type CardCurrency } from "./card-settlement.ts";

/**
 * Points the card at another funding source of the user's (a wallet or a linked bank account);
 * authorizations check its balance from then on. A closed card refuses (CRD-409-001).
 */
export async function setCardFunding(db: FinanceDb, users: FederatedClient, options: { user_id: string; card_id: string; funding_source: CardFundingSourceInput; trace_id: string }): Promise<CardView> {
  const { type } = options.funding_source;
  const closed = () => appError("CRD-409-001", "The card is closed; its funding source can no longer change.");
  const current = await findOwnCardRow(db, options.user_id, options.card_id);
  if (current.status === "closed") throw closed();
  await resolveSettlement(db, users, { user_id: options.user_id, funding_source: { type, id: options.funding_source.id }, currency: current.currency as CardCurrency, trace_id: options.trace_id, id_loc: ["id"] });
  return db.$transaction(async (tx) => {
    // closed meanwhile: the update matches nothing
    const { count } = await tx.card.updateMany({ where: { id: current.id, status: { not: "closed" } }, data: { funding_source_type: type, funding_source_id: options.funding_source.id, updated_at: new Date() } });
    if (count === 0) throw closed();
    return cardView(tx, await findOwnCardRow(tx, options.user_id, options.card_id));
  });
}
