import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { FinanceTx } from "../db.ts";
import type { Budget as BudgetRow } from "../generated/prisma/client.ts";
import type { Budget, CreateBudgetInput } from "../types/budget.ts";
import { parseAmount } from "../transactions/amount.ts";

/** What a budget stores, checked: category, amount, currency and period as the API shows them, and the bounds as stored (custom budgets only). */
export type BudgetFields = Pick<Budget, "category" | "amount" | "currency" | "period"> & Pick<BudgetRow, "period_start" | "period_end">;

/** The fields as given, each present (create: the input with its default; update: the stored ones overlaid with the patch). */
export type BudgetFieldsInput = Required<CreateBudgetInput>;

/** `currency` as the catalogue spells it, with its decimals (USD 2, USDC 6), or BGT-422-001. */
async function budgetCurrency(tx: FinanceTx, currency: unknown): Promise<{ symbol: string; decimals: number }> {
  if (typeof currency !== "string" || currency.length === 0) throw validationError(["currency"], "Input should be an asset symbol such as \"USD\"", currency, "string_type");
  const asset = await tx.asset.findFirst({ where: { symbol: { equals: currency, mode: "insensitive" } }, select: { symbol: true, decimals: true } });
  if (!asset) throw appError("BGT-422-001", `${currency} is not in the asset catalogue; use a symbol from GET /v0/assets, such as USD or EUR.`);
  return asset;
}

/**
 * Checks a budget's fields together: a positive amount with at most the currency's decimals, and
 * bounds exactly when the period is custom, ending after they start (category and period are
 * GraphQL enums, other values refused before this runs). Refusals are GEN-422-001 items at `<field>` (an unknown currency BGT-422-001).
 */
export async function checkBudgetFields(tx: FinanceTx, input: BudgetFieldsInput): Promise<BudgetFields> {
  const { category, period } = input;
  const currency = await budgetCurrency(tx, input.currency);
  const amount = parseAmount(input.amount, currency.decimals, ["amount"]);
  if (period !== "custom") {
    for (const field of ["period_start", "period_end"] as const)
      if (input[field] !== null) throw validationError([field], "Only custom budgets take period_start and period_end", input[field]!.getTime(), "extra_forbidden");
    return { category, amount, currency: currency.symbol, period, period_start: null, period_end: null };
  }
  for (const field of ["period_start", "period_end"] as const)
    if (input[field] === null) throw validationError([field], "Field required for a custom budget", null, "missing");
  if (input.period_end!.getTime() <= input.period_start!.getTime())
    throw validationError(["period_end"], "Input should be after period_start", input.period_end!.getTime(), "greater_than", { gt: input.period_start!.getTime() });
  return { category, amount, currency: currency.symbol, period, period_start: input.period_start, period_end: input.period_end };
}
