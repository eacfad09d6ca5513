import { appError } from "../../../lib/errors/app-error.ts";
import type { CardFundingSourceType, CardStatus, CardType } from "../../../lib/vocabulary/cards.ts";
import { userTimeZone } from "../budgets/budget-settings.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import type { Card as CardRow } from "../generated/prisma/client.ts";
import type { Card, CardControls, CardFundingSource, CardLimitUsage } from "../types/card.ts";
import { cardSpending } from "./card-spending.ts";

/**
 * A card as the API shows it (the GraphQL Card): never its number, CVV or expiry (spec 2.10:
 * secure endpoints only). Its funding source's wallet is the users subgraph's, which the resolver
 * references by id.
 */
export type CardView = Omit<Card, "funding_source"> & { funding_source: Omit<CardFundingSource, "wallet"> };

const WITH_HISTORY = { status_history: { orderBy: { id: "asc" } } } as const;
type CardWithHistory = Prisma.CardGetPayload<{ include: typeof WITH_HISTORY }>;

export const decimalText = (value: Prisma.Decimal | null): string | null => (value === null ? null : value.toFixed());

export function controlsOf(row: CardRow): CardControls {
  return {
    daily_limit: decimalText(row.daily_limit),
    monthly_limit: decimalText(row.monthly_limit),
    single_transaction_limit: decimalText(row.single_transaction_limit),
    allowed_mcc: row.allowed_mcc,
    blocked_mcc: row.blocked_mcc,
  };
}

function usageOf(limit: string | null, spent: string, bounds: { start: Date; end: Date }): CardLimitUsage {
  const remaining = limit === null ? null : new Prisma.Decimal(limit).minus(spent);
  return { limit, spent, remaining: remaining === null ? null : Prisma.Decimal.max(remaining, 0).toFixed(), period_start: bounds.start, period_end: bounds.end };
}

export async function cardView(tx: FinanceTx, row: CardWithHistory, now: Date = new Date()): Promise<CardView> {
  const timeZone = await userTimeZone(tx, row.user_id);
  const spending = await cardSpending(tx, row.id, now, timeZone);
  const controls = controlsOf(row);
  return {
    id: row.id,
    type: row.type as CardType,
    status: row.status as CardStatus,
    nickname: row.nickname,
    currency: row.currency,
    last_four: row.last_four,
    funding_source: { type: row.funding_source_type as CardFundingSourceType, id: row.funding_source_id },
    controls,
    usage: {
      time_zone: timeZone,
      daily: usageOf(controls.daily_limit, spending.day.spent, spending.day),
      monthly: usageOf(controls.monthly_limit, spending.month.spent, spending.month),
      single_transaction_limit: controls.single_transaction_limit,
    },
    shipping_address: (row.shipping_address as Record<string, unknown> | null) ?? null,
    status_history: row.status_history.map((change) => ({ from: change.from as CardStatus | null, to: change.to as CardStatus, changed_at: change.changed_at })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The user's card row, or CRD-404-001: other users' cards do not exist. */
export async function findOwnCardRow(tx: FinanceTx, userId: string, cardId: string): Promise<CardWithHistory> {
  const row = await tx.card.findFirst({ where: { id: cardId, user_id: userId }, include: WITH_HISTORY });
  if (!row) throw appError("CRD-404-001", `Card ${cardId} was not found for this user.`);
  return row;
}

export async function getCard(tx: FinanceTx, options: { user_id: string; card_id: string }): Promise<CardView> {
  return cardView(tx, await findOwnCardRow(tx, options.user_id, options.card_id));
}

/** Every card of the user, oldest first, closed ones included (their history stays readable). */
export async function listCards(tx: FinanceTx, options: { user_id: string }): Promise<CardView[]> {
  const rows = await tx.card.findMany({ where: { user_id: options.user_id }, include: WITH_HISTORY, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return Promise.all(rows.map((row) => cardView(tx, row)));
}
