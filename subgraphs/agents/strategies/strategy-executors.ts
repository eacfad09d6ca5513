import type { AutomationCause, AutomationFinance } from "../../../lib/automation-finance.ts";
import { compareDecimals, roundUpDifference, sideOf, subtractDecimals, sumDecimals } from "../../../lib/decimal.ts";
import type { AgentsDb } from "../db.ts";
import { notify } from "../notifications/notifications.ts";

/** One run of a user strategy, inside its strategy_run task. */
export interface StrategyRun {
  db: AgentsDb;
  finance: AutomationFinance;
  user_id: string;
  user_strategy: { id: string; parameters: Record<string, unknown>; state: unknown; created_at: Date };
  /**
   * The task: its id keys every movement and notification, so a repeated run does nothing twice;
   * it covers what happened after `after` (the previous run's scheduled time) up to its own.
   */
  task: { id: string; scheduled_at: Date; after: Date };
  /** why it runs (the chain that led to it, this strategy last): every movement it makes carries it */
  cause: AutomationCause;
  trace_id: string;
}

/** What a strategy does when it runs; its answer is the task's output. */
export type StrategyExecutor = (run: StrategyRun) => Promise<Record<string, unknown>>;

/**
 * Round-up savings: the card purchases recorded in the task's window (after the previous run's
 * scheduled time, up to its own: windows do not overlap, whichever runner runs which run first, and
 * a repeated run reads the same one), each paid from a wallet, rounded up to `round_to` ×
 * `multiplier`, summed per paying wallet and stablecoin and moved into the savings wallet.
 */
const roundUp: StrategyExecutor = async (run) => {
  const { savings_wallet_id, round_to, multiplier } = run.user_strategy.parameters as { savings_wallet_id: number; round_to: number; multiplier: number };
  const window = { after: run.task.after, until: run.task.scheduled_at };
  const purchases = (await run.finance.cardPurchases(run.user_id, window, run.trace_id)).filter((purchase) => purchase.wallet_id !== null && purchase.wallet_id !== savings_wallet_id);
  const groups = new Map<string, { wallet_id: number; asset: string; amounts: string[] }>();
  for (const purchase of purchases) {
    const key = `${purchase.wallet_id}/${purchase.unit}`;
    const group = groups.get(key) ?? { wallet_id: purchase.wallet_id!, asset: purchase.unit, amounts: [] };
    group.amounts.push(roundUpDifference(purchase.amount, round_to, multiplier));
    groups.set(key, group);
  }
  const moved = [];
  for (const group of groups.values()) {
    const amount = sumDecimals(group.amounts);
    if (compareDecimals(amount, "0") <= 0) continue;
    const movement = await run.finance.move(
      { user_id: run.user_id, key: `${run.task.id}/${group.wallet_id}/${group.asset}`, from_wallet_id: group.wallet_id, to_wallet_id: savings_wallet_id, asset: group.asset, buy_asset: null, amount, description: `Round-up savings (${group.amounts.length} purchases)`, cause: run.cause },
      run.trace_id,
    );
    moved.push({ from_wallet_id: group.wallet_id, to_wallet_id: savings_wallet_id, asset: group.asset, amount, transaction_ids: movement.transaction_ids });
  }
  return { window: { after: window.after.getTime(), until: window.until.getTime() }, purchases: purchases.length, moved };
};

/** Recurring buy: one swap of `amount` of the paying stablecoin into the asset, in the source wallet. */
const recurringBuy: StrategyExecutor = async (run) => {
  const { source_wallet_id, pay_asset, asset, amount } = run.user_strategy.parameters as { source_wallet_id: number; pay_asset: string; asset: string; amount: string };
  const movement = await run.finance.move(
    { user_id: run.user_id, key: run.task.id, from_wallet_id: source_wallet_id, to_wallet_id: null, asset: pay_asset, buy_asset: asset, amount, description: `Recurring buy of ${asset}`, cause: run.cause },
    run.trace_id,
  );
  return { paid: { asset: pay_asset, amount }, bought: { asset, amount: movement.amount_in }, transaction_ids: movement.transaction_ids };
};

/** Sweep: what the source wallet may spend of the asset above the threshold goes to savings. */
const sweep: StrategyExecutor = async (run) => {
  const { source_wallet_id, savings_wallet_id, asset, threshold } = run.user_strategy.parameters as { source_wallet_id: number; savings_wallet_id: number; asset: string; threshold: string };
  const available = await run.finance.walletAvailable(run.user_id, source_wallet_id, asset, run.trace_id);
  const excess = subtractDecimals(available, threshold);
  if (compareDecimals(excess, "0") <= 0) return { available, threshold, swept: "0" };
  const movement = await run.finance.move(
    { user_id: run.user_id, key: run.task.id, from_wallet_id: source_wallet_id, to_wallet_id: savings_wallet_id, asset, buy_asset: null, amount: excess, description: `Sweep above ${threshold} ${asset}`, cause: run.cause },
    run.trace_id,
  );
  return { available, threshold, swept: excess, transaction_ids: movement.transaction_ids };
};

/**
 * Low balance alert: a notification when the wallet's available balance of the asset falls below
 * the threshold, on the crossing only: the strategy remembers the side it last saw, so a wallet
 * staying below is not notified again on every movement (nor a run repeated after a dead runner).
 */
const lowBalanceAlert: StrategyExecutor = async (run) => {
  const { wallet_id, asset, threshold } = run.user_strategy.parameters as { wallet_id: number; asset: string; threshold: string };
  const available = await run.finance.walletAvailable(run.user_id, wallet_id, asset, run.trace_id);
  const side = sideOf(available, threshold);
  const previous = (run.user_strategy.state as { side?: string } | null)?.side ?? "above";
  const triggered = side === "below" && previous !== "below";
  if (triggered)
    await notify(run.db, {
      user_id: run.user_id,
      source: "stg_low_balance_alert",
      title: `Low ${asset} balance`,
      body: `Wallet ${wallet_id} holds ${available} ${asset}, below your alert at ${threshold}.`,
      data: { user_strategy_id: run.user_strategy.id, wallet_id, asset, available, threshold },
      dedupe_key: run.task.id,
    });
  if (side !== previous) await run.db.userStrategy.update({ where: { id: run.user_strategy.id }, data: { state: { side } } });
  return { triggered, available, threshold, side };
};

/** The start (UTC) of the calendar week (Monday) or month holding `at`. */
function periodStart(at: Date, period: "weekly" | "monthly"): Date {
  if (period === "monthly") return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day));
}

/** Spending cap alert: one notification per week or month (UTC calendar) once the category's spending in it passes the cap. */
const spendingCapAlert: StrategyExecutor = async (run) => {
  const { category, cap, period } = run.user_strategy.parameters as { category: string; cap: string; period: "weekly" | "monthly" };
  const since = periodStart(run.task.scheduled_at, period);
  const spent = await run.finance.spendingSince(run.user_id, category, since, run.trace_id);
  const triggered = compareDecimals(spent, cap) > 0;
  if (triggered)
    await notify(run.db, {
      user_id: run.user_id,
      source: "stg_spending_cap_alert",
      title: `Spending cap passed: ${category}`,
      body: `You spent ${spent} USD on ${category} this ${period === "weekly" ? "week" : "month"}, over your cap of ${cap} USD.`,
      data: { user_strategy_id: run.user_strategy.id, category, spent, cap, period, since: since.getTime() },
      // once per period: later purchases in the same period do not notify again
      dedupe_key: `spending-cap:${run.user_strategy.id}:${since.getTime()}`,
    });
  return { triggered, spent, cap, since: since.getTime() };
};

/** The strategies whose runs move money (the others notify): they take part in automation chains (automation/causation.ts). */
export const MONEY_MOVING_STRATEGIES: ReadonlySet<string> = new Set(["stg_round_up", "stg_recurring_buy", "stg_balance_sweep"]);

/** Each catalogue strategy's run, by its id (the seeded catalogue: prisma/agents/migrations/*_strategies_tasks). */
export const STRATEGY_EXECUTORS: Record<string, StrategyExecutor> = {
  stg_round_up: roundUp,
  stg_recurring_buy: recurringBuy,
  stg_balance_sweep: sweep,
  stg_low_balance_alert: lowBalanceAlert,
  stg_spending_cap_alert: spendingCapAlert,
};
