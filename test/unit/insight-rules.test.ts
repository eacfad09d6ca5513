import { describe, expect, it } from "vitest";
import type { BudgetView } from "../../subgraphs/finance/budgets/budget-view.ts";
import { budgetWarnings } from "../../subgraphs/finance/insights/budget-warnings.ts";
import { money } from "../../subgraphs/finance/insights/finding.ts";
import { goalProgress } from "../../subgraphs/finance/insights/goal-progress.ts";
import { findRecurringSeries, recurringChargeFinding, type Charge, type MerchantCharges } from "../../subgraphs/finance/insights/recurring-charges.ts";
import { feesFinding, overlappingSubscriptions } from "../../subgraphs/finance/insights/saving-opportunities.ts";
import { spendingSpikes, type CategorySpend } from "../../subgraphs/finance/insights/spending-spike.ts";
import { categoryOfMcc } from "../../subgraphs/finance/transactions/mcc-category.ts";

// Issue 9, insights: the rules are plain functions over figures the ledger queries aggregate.

const DAY = 86_400_000;
const NOW = new Date(Date.UTC(2026, 10, 20, 12));
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

describe("spending_spike", () => {
  const month = { start: new Date(Date.UTC(2026, 10, 1)), end: new Date(Date.UTC(2026, 11, 1)), label: "2026-11" };
  const spike = (spend: Omit<CategorySpend, "category">) => spendingSpikes({ month, time_zone: "UTC", spends: [{ category: "groceries", ...spend }] });

  it("needs 1.5 times the trailing average and 50 USD above it", () => {
    expect(spike({ current: "450", previous: ["300", "300", "300"] })).toHaveLength(1);
    expect(spike({ current: "449.99", previous: ["300", "300", "300"] })).toEqual([]);
    // 1.5× but only 45 above: too small to tell
    expect(spike({ current: "135", previous: ["90", "90", "90"] })).toEqual([]);
  });

  it("needs spending in at least two of the trailing months", () => {
    expect(spike({ current: "900", previous: ["0", "0", "300"] })).toEqual([]);
    // months without spending count as zero in the average: (0 + 300 + 300) / 3 = 200
    expect(spike({ current: "300", previous: ["0", "300", "300"] })).toMatchObject([{ data: { trailing_average: "200", increase_percent: 50 } }]);
  });

  it("is one finding per category and month", () => {
    const [finding] = spike({ current: "600", previous: ["300", "300", "300"] });
    expect(finding!.fingerprint).toBe("spending_spike:groceries:2026-11");
    expect(finding!.description).toBe("You have spent 600.00 USD on groceries since Nov 1, 2026, 100% more than your monthly average of 300.00 USD over the previous 3 months.");
  });
});

describe("recurring_charge", () => {
  const merchant = (charges: [number, string][]): MerchantCharges => ({
    merchant_key: "netflix",
    merchant_name: "Netflix",
    category: "entertainment",
    unit: "USD",
    charges: charges.map(([days, amount], i): Charge => ({ id: `txn_${i}`, amount, timestamp: ago(days) })),
  });

  it("finds three charges in a row at one cadence and a similar amount", () => {
    const series = findRecurringSeries(merchant([[2, "15.99"], [32, "15.99"], [63, "15.49"]]), NOW);
    expect(series).toMatchObject({ cadence: { name: "monthly" } });
    expect(series!.typical_amount.toFixed()).toBe("15.99");
    expect(series!.charges.map((charge) => charge.id)).toEqual(["txn_2", "txn_1", "txn_0"]);
    expect(series!.next_expected_at.getTime()).toBe(ago(2).getTime() + Math.round((61 * DAY) / 2));
    expect(findRecurringSeries(merchant([[1, "9"], [8, "9"], [15, "9"], [22, "9"]]), NOW)).toMatchObject({ cadence: { name: "weekly" } });
    expect(findRecurringSeries(merchant([[1, "50"], [92, "50"], [183, "50"]]), NOW)).toMatchObject({ cadence: { name: "quarterly" } });
  });

  it("needs at least three, a regular gap, a similar amount and a recent last charge", () => {
    expect(findRecurringSeries(merchant([[2, "15.99"], [32, "15.99"]]), NOW)).toBeNull();
    expect(findRecurringSeries(merchant([[2, "15.99"], [22, "15.99"], [52, "15.99"]]), NOW)).toBeNull();
    // the third charge is 25% off the latest: a different purchase, not the subscription
    expect(findRecurringSeries(merchant([[2, "20"], [32, "20"], [62, "15"]]), NOW)).toBeNull();
    expect(findRecurringSeries(merchant([[2, "20"], [32, "20"], [62, "16"]]), NOW)).not.toBeNull();
    // stopped: the last monthly charge was 60 days ago (over 1.5 × 35 days)
    expect(findRecurringSeries(merchant([[60, "15.99"], [90, "15.99"], [120, "15.99"]]), NOW)).toBeNull();
  });

  it("stops the run where the cadence breaks", () => {
    const series = findRecurringSeries(merchant([[2, "10"], [32, "10"], [62, "10"], [70, "10"], [100, "10"]]), NOW);
    expect(series!.charges).toHaveLength(3);
  });

  it("says the yearly cost and names the merchant, unit and cadence once", () => {
    const series = findRecurringSeries(merchant([[2, "15.99"], [32, "15.99"], [62, "15.99"]]), NOW)!;
    const finding = recurringChargeFinding(series, "UTC");
    expect(finding.fingerprint).toBe("recurring_charge:netflix:USD:monthly");
    expect(finding.data).toMatchObject({ yearly_cost: "191.88", occurrences: 3, last_charge_at: ago(2).getTime() });
  });
});

describe("saving_opportunity", () => {
  const series = (merchant_key: string, category: string, amount: string, days = [2, 32, 62]) =>
    findRecurringSeries({ merchant_key, merchant_name: merchant_key, category, unit: "USD", charges: days.map((d, i) => ({ id: `${merchant_key}_${i}`, amount, timestamp: ago(d) })) }, NOW)!;

  it("tells two or more recurring charges of one category as overlapping subscriptions", () => {
    const findings = overlappingSubscriptions([series("b-stream", "entertainment", "8"), series("a-stream", "entertainment", "12"), series("gym", "health", "30")]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ fingerprint: "saving_opportunity:overlap:entertainment:USD:a-stream|b-stream", data: { monthly_cost: "20" } });
    expect(findings[0]!.description).toContain("cancelling even the cheapest (b-stream) saves about 96.00 USD a year");
    // groceries are not subscriptions
    expect(overlappingSubscriptions([series("shop-a", "groceries", "8"), series("shop-b", "groceries", "9")])).toEqual([]);
  });

  it("tells fees from 5 USD over the window", () => {
    const fees = { count: 2, transaction_ids: ["a", "b"], period_start: ago(90), period_end: NOW, month_label: "2026-11" };
    expect(feesFinding({ ...fees, total: "4.99" }, "UTC")).toEqual([]);
    expect(feesFinding({ ...fees, total: "5" }, "UTC")).toMatchObject([{ fingerprint: "saving_opportunity:fees:2026-11", title: "You paid 5.00 USD in fees" }]);
  });
});

describe("budget_warning", () => {
  const budget = (percentage_used: number, spent: string, remaining: string): BudgetView => ({
    id: "bgt_1",
    category: "groceries",
    amount: "200",
    currency: "USD",
    period: "weekly",
    period_start: new Date(Date.UTC(2026, 10, 16)),
    period_end: new Date(Date.UTC(2026, 10, 23)),
    time_zone: "UTC",
    spent,
    remaining,
    percentage_used,
    created_at: NOW,
    updated_at: NOW,
  });

  it("warns from 80%, critically from 100%, once per budget, period and threshold", () => {
    expect(budgetWarnings([budget(79.99, "159.98", "40.02")], NOW)).toEqual([]);
    const [warning] = budgetWarnings([budget(80, "160", "40")], NOW);
    expect(warning).toMatchObject({ severity: "warning", fingerprint: "budget_warning:bgt_1:2026-11-16T00:00:00.000Z:80" });
    expect(warning!.description).toBe("You have spent 160.00 USD of your 200.00 USD weekly groceries budget (80%), 40.00 USD left, with 3 days to go in this period.");
    const [over] = budgetWarnings([budget(110, "220", "-20")], NOW);
    expect(over).toMatchObject({ severity: "critical", title: "Groceries budget exceeded", data: { threshold: 100 } });
    expect(over!.description).toContain("20.00 USD over it");
  });
});

describe("goal_progress", () => {
  it("tells the highest milestone reached", () => {
    const goal = { id: "g", name: "Bike", currency: "USD", target_amount: "800" };
    expect(goalProgress([{ ...goal, saved_amount: "199.99" }])).toEqual([]);
    expect(goalProgress([{ ...goal, saved_amount: "600" }])).toMatchObject([{ fingerprint: "goal_progress:g:75", title: "Bike: 75% saved" }]);
    expect(goalProgress([{ ...goal, saved_amount: "900" }])).toMatchObject([{ title: "Bike: goal reached", data: { milestone: 100 } }]);
    expect(goalProgress([{ ...goal, target_amount: "0", saved_amount: "5" }])).toEqual([]);
  });
});

describe("figures in words", () => {
  it("writes fiat to the cent with separators and crypto exactly", () => {
    expect(money("1234567.005", "USD")).toBe("1,234,567.01 USD");
    expect(money("0.000123", "ETH")).toBe("0.000123 ETH");
  });
});

describe("categoryOfMcc", () => {
  it("maps merchant category codes to the spending categories", () => {
    expect(categoryOfMcc("5812")).toBe("restaurants");
    expect(categoryOfMcc("5411")).toBe("groceries");
    expect(categoryOfMcc("4111")).toBe("transportation");
    expect(categoryOfMcc("3058")).toBe("travel");
    expect(categoryOfMcc("4899")).toBe("entertainment");
    expect(categoryOfMcc("4900")).toBe("utilities");
    expect(categoryOfMcc("5912")).toBe("health");
    expect(categoryOfMcc("5732")).toBe("shopping");
    expect(categoryOfMcc("6011")).toBeNull();
    expect(categoryOfMcc("12")).toBeNull();
    expect(categoryOfMcc(null)).toBeNull();
  });
});
