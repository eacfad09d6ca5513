import { AppError, validationError } from "../../../lib/errors/app-error.ts";
import { requireSandbox } from "../../../lib/sandbox.ts";
import { newId } from "../../../lib/ids.ts";
import type { CardFundingSourceType, CardStatus } from "../../../lib/vocabulary/cards.ts";
import { userTimeZone } from "../budgets/budget-settings.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import type { FinanceServices } from "../services.ts";
import { parseAmount } from "../transactions/amount.ts";
import { availableAfter } from "../transactions/balances.ts";
import { lockSource } from "../transactions/ledger-source.ts";
import { recordMovement, unitColumns } from "../transactions/record-movement.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import { decideAuthorization } from "./authorization-rules.ts";
import { authorizationView, type CardAuthorizationView } from "./card-authorization-view.ts";
import { emitCardAuthorization } from "./card-events.ts";
import { lockCard } from "./lock-card.ts";
import { controlsOf, findOwnCardRow } from "./card-view.ts";
import { CARD_DECIMALS, resolveSettlement, type CardCurrency, type CardSettlement } from "./card-settlement.ts";
import { cardSpending } from "./card-spending.ts";

export type SandboxCardServices = Pick<FinanceServices, "db" | "users" | "sandbox" | "prices">;

export interface AuthorizeCardOptions {
  user_id: string;
  card_id: string;
  /** positive decimal string in `currency`, cents at most */
  amount: string;
  currency: string;
  merchant: { name: string; mcc: string };
  idempotency_key?: string | null;
  trace_id: string;
}

/** A funding source that cannot pay (its wallet gone, no stablecoin on its chain, a bank account not linked) declines, as at a real network. */
const UNUSABLE_FUNDING = new Set(["WAL-404-001", "BNK-404-001", "TXN-422-002"]);

async function settlementOrNull(services: SandboxCardServices, options: Parameters<typeof resolveSettlement>[2]): Promise<CardSettlement | null> {
  try {
    return await resolveSettlement(services.db, services.users, options);
  } catch (error) {
    if (error instanceof AppError && UNUSABLE_FUNDING.has(error.code)) return null;
    throw error;
  }
}

/**
 * One authorization request at a merchant, decided by decideAuthorization and recorded either way
 * (a declined one keeps its reason). The facts are read under the card's lock and the funding
 * source's (card first, always), so of two concurrent authorizations that only one fits under a
 * limit or a balance, the second sees the first's purchase. An approval books a `card_purchase`
 * (out, pending) debiting the funding source one to one in its settlement unit (a wallet's
 * stablecoin, a bank account's currency), naming the card; a bank account's available balance is
 * the bank's reported one less our pending outflows (availableAfter).
 * The funding source is settled (asked of the users subgraph) before the transaction opens. The
 * decision's card.authorization_approved or card.authorization_declined event is written with it.
 */
export async function authorizeCard(services: SandboxCardServices, options: AuthorizeCardOptions): Promise<CardAuthorizationView> {
  requireSandbox(services);
  const amount = parseAmount(options.amount, CARD_DECIMALS, ["amount"]);
  const currency = options.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw validationError(["currency"], "Input should be a three-letter ISO 4217 currency code", options.currency, "string_pattern_mismatch");
  const mcc = options.merchant.mcc;
  if (!/^[0-9]{4}$/.test(mcc)) throw validationError(["merchant", "mcc"], "Input should be a four-digit merchant category code", mcc, "string_pattern_mismatch");
  const merchant = { name: options.merchant.name, mcc };

  const card = await findOwnCardRow(services.db, options.user_id, options.card_id);
  const settlement = await settlementOrNull(services, { user_id: options.user_id, funding_source: { type: card.funding_source_type as CardFundingSourceType, id: card.funding_source_id }, currency: card.currency as CardCurrency, trace_id: options.trace_id, id_loc: ["card_id"] });
  const usdPrice = settlement && (await usdPriceNow(services.prices, settlement.unit));
  const args = { card_id: card.id, amount, currency, merchant };

  return withIdempotency<CardAuthorizationView>(
    services.db,
    { user_id: options.user_id, key: options.idempotency_key, operation: "sandbox_authorize_card", args, snapshot: jsonSnapshot, restore: fromJsonSnapshot },
    async (tx) => {
      await lockCard(tx, card.id);
      if (settlement) await lockSource(tx, settlement.source);
      // read again under the locks: a freeze or a new limit applies from the next authorization on
      const current = await findOwnCardRow(tx, options.user_id, card.id);
      const now = new Date();
      const spending = await cardSpending(tx, current.id, now, await userTimeZone(tx, options.user_id));
      const available = settlement && (await availableAfter(tx, settlement.source, unitColumns(settlement.unit), "0"));
      const outcome = decideAuthorization({
        card: { status: current.status as CardStatus, currency: current.currency, controls: controlsOf(current) },
        request: { amount, currency, mcc },
        spent: { day: spending.day.spent, month: spending.month.spent },
        available,
      });
      const purchase =
        outcome.decision === "approved" && settlement
          ? await recordMovement(tx, {
              user_id: options.user_id,
              type: "card_purchase",
              direction: "out",
              status: "pending",
              amount,
              unit: settlement.unit,
              source: settlement.source,
              card_id: current.id,
              merchant,
              usd_price: usdPrice,
              chain_id: settlement.chain_id,
              timestamp: now,
            })
          : null;
      const row = await tx.cardAuthorization.create({
        data: {
          id: newId("cau", now.getTime()),
          card_id: current.id,
          user_id: options.user_id,
          amount,
          currency,
          merchant_name: merchant.name,
          merchant_mcc: merchant.mcc,
          decision: outcome.decision,
          decline_reason: outcome.decision === "declined" ? outcome.reason : null,
          status: outcome.decision === "declined" ? "declined" : "pending",
          transaction_id: purchase?.id ?? null,
          created_at: now,
          updated_at: now,
        },
      });
      await emitCardAuthorization(tx, row);
      return authorizationView(tx, row);
    },
  );
}
