import type { CardRevealMethod } from "../../../lib/vocabulary/cards.ts";
import type { FinanceDb } from "../db.ts";
import { pageBounds, type PageInput } from "../transactions/list-transactions.ts";
import { findOwnCardRow } from "./card-view.ts";

/** One reveal of a card's details, as its audit trail shows it (never the details themselves). */
export interface CardRevealView {
  id: string;
  card_id: string;
  challenge_id: string;
  method: CardRevealMethod;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
}

export interface CardRevealPageView {
  items: CardRevealView[];
  pagination: { limit: number; offset: number; total: number };
}

/** The audit trail of one of the user's cards (closed ones too; another user's: CRD-404-001), newest first. */
export async function listCardReveals(db: FinanceDb, options: { user_id: string; card_id: string; page?: PageInput | null }): Promise<CardRevealPageView> {
  const { limit, offset } = pageBounds(options.page);
  const card = await findOwnCardRow(db, options.user_id, options.card_id);
  const where = { card_id: card.id, user_id: options.user_id };
  const [rows, total] = await Promise.all([
    db.cardReveal.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: limit, skip: offset }),
    db.cardReveal.count({ where }),
  ]);
  return {
    items: rows.map((row) => ({ id: row.id, card_id: row.card_id, challenge_id: row.challenge_id, method: row.method as CardRevealMethod, ip: row.ip, user_agent: row.user_agent, created_at: row.created_at })),
    pagination: { limit, offset, total },
  };
}
