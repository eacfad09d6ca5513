import type { LedgerEvent } from "../../../lib/automation-finance.ts";
import type { TriggerSettings } from "../../../lib/contracts/rules.ts";
import { compareDecimals, sideOf } from "../../../lib/decimal.ts";
import type { AgentsTx } from "../db.ts";
import { fireRule } from "../rules/fire-rule.ts";
import { MONEY_MOVING_STRATEGIES } from "../strategies/strategy-executors.ts";
import { insertAgentTask } from "../tasks/agent-tasks.ts";
import { causeOfReaction, decideReaction, strategyLink } from "./causation.ts";

/** The balances a ledger event's threshold rules need, read from finance before the event's transaction opens. */
export type EventBalances = Map<string, string>;
export const balanceKey = (walletId: number, asset: string) => `${walletId}/${asset.toUpperCase()}`;

const unitOf = (event: LedgerEvent) => event.payload.asset_symbol ?? event.payload.currency ?? "";
const sameAsset = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/**
 * Which of a user's enabled strategies a ledger event concerns, each run once for it (a strategy_run
 * task keyed by the event): round-up on a card purchase recorded; low-balance and sweep on a
 * movement of their wallet and asset; spending cap on an outflow in its category.
 */
function concerns(strategyId: string, parameters: Record<string, unknown>, event: LedgerEvent): boolean {
  const { payload } = event;
  switch (strategyId) {
    case "stg_round_up":
      return event.kind === "recorded" && payload.type === "card_purchase";
    case "stg_low_balance_alert":
      return payload.wallet_id === parameters.wallet_id && sameAsset(unitOf(event), String(parameters.asset));
    case "stg_balance_sweep":
      return payload.wallet_id === parameters.source_wallet_id && sameAsset(unitOf(event), String(parameters.asset)) && payload.direction === "in" && payload.status === "completed";
    case "stg_spending_cap_alert":
      return payload.direction === "out" && payload.category === parameters.category && payload.status !== "failed";
    default:
      return false;
  }
}

function matchesTransaction(trigger: TriggerSettings<"transaction_received">, event: LedgerEvent): boolean {
  const { payload } = event;
  if (event.kind !== "recorded") return false;
  if (trigger.type !== undefined && payload.type !== trigger.type) return false;
  if (trigger.category !== undefined && payload.category !== trigger.category) return false;
  if (trigger.direction !== undefined && payload.direction !== trigger.direction) return false;
  if (trigger.wallet_id !== undefined && payload.wallet_id !== trigger.wallet_id) return false;
  if (trigger.amount_min !== undefined && compareDecimals(payload.amount, trigger.amount_min) < 0) return false;
  if (trigger.amount_max !== undefined && compareDecimals(payload.amount, trigger.amount_max) > 0) return false;
  return true;
}

/**
 * What one ledger event causes, in the transaction that records it as processed: strategy runs
 * queued, transaction_received rules fired, and balance_threshold rules moved to the side the
 * balance now stands on, firing on a crossing in their direction only (a rule below its threshold
 * stays quiet while the balance stays below). Disabled rules keep their side up to date but do not fire.
 * The event's cause (automation made its movement) goes with each reaction: a strategy is not run
 * for a movement its own chain made, nor, when it moves money, past the chain depth
 * (causation.ts); rules decide the same and more in fireRule.
 */
export async function reactToLedgerEvent(tx: AgentsTx, event: LedgerEvent, balances: EventBalances, now: Date): Promise<void> {
  const eventData = { ledger_event_id: event.id, kind: event.kind, ...event.payload };
  const cause = event.payload.cause ?? null;
  const strategies = await tx.userStrategy.findMany({ where: { user_id: event.user_id, status: "enabled" } });
  for (const strategy of strategies) {
    if (!concerns(strategy.strategy_id, strategy.parameters as Record<string, unknown>, event)) continue;
    if (!decideReaction(cause, strategyLink(strategy.id), MONEY_MOVING_STRATEGIES.has(strategy.strategy_id)).allowed) continue;
    const dedupe_key = `ledger:${event.id}:${strategy.id}`;
    await insertAgentTask(
      tx,
      { user_id: event.user_id, kind: "strategy_run", title: `Run strategy ${strategy.id} for ${event.payload.type}`, input: { user_strategy_id: strategy.id }, scheduled_at: now, user_strategy_id: strategy.id, dedupe_key, cause: causeOfReaction(cause, `ledger:${event.id}`, [strategyLink(strategy.id)], dedupe_key) },
      now,
    );
  }

  const rules = await tx.userRule.findMany({ where: { user_id: event.user_id, trigger_type: { in: ["transaction_received", "balance_threshold"] } } });
  for (const rule of rules) {
    const ruleEvent = { key: `ledger:${event.id}`, data: eventData, description: `${event.payload.type} of ${event.payload.amount} ${unitOf(event)} (${event.payload.status})`, cause };
    if (rule.trigger_type === "transaction_received") {
      if (rule.enabled && matchesTransaction(rule.trigger as TriggerSettings<"transaction_received">, event)) await fireRule(tx, rule, ruleEvent, now);
      continue;
    }
    const trigger = rule.trigger as TriggerSettings<"balance_threshold">;
    const balance = balances.get(balanceKey(trigger.wallet_id, trigger.asset));
    if (balance === undefined) continue;
    const side = sideOf(balance, trigger.threshold);
    const previous = (rule.state as { side?: string } | null)?.side;
    if (side === previous) continue;
    await tx.userRule.update({ where: { id: rule.id }, data: { state: { side } } });
    if (rule.enabled && side === trigger.crossing)
      await fireRule(tx, rule, { ...ruleEvent, data: { ...eventData, balance, threshold: trigger.threshold }, description: `Wallet ${trigger.wallet_id} holds ${balance} ${trigger.asset}, now ${side} ${trigger.threshold}.` }, now);
  }
}

/** What may react to a user's ledger events: their enabled strategies and their ledger-triggered rules, read once per batch. */
export interface UserReactors {
  strategies: { id: string; strategy_id: string; parameters: unknown }[];
  rules: { trigger_type: string; enabled: boolean; trigger: unknown }[];
}

/** The reactors of each user (users without any are absent): two statements for a whole batch. */
export async function reactorsOf(db: Pick<AgentsTx, "userStrategy" | "userRule">, userIds: readonly string[]): Promise<Map<string, UserReactors>> {
  const reactors = new Map<string, UserReactors>();
  const of = (userId: string) => reactors.get(userId) ?? reactors.set(userId, { strategies: [], rules: [] }).get(userId)!;
  if (userIds.length === 0) return reactors;
  const [strategies, rules] = await Promise.all([
    db.userStrategy.findMany({ where: { user_id: { in: [...userIds] }, status: "enabled" }, select: { id: true, user_id: true, strategy_id: true, parameters: true } }),
    db.userRule.findMany({ where: { user_id: { in: [...userIds] }, trigger_type: { in: ["transaction_received", "balance_threshold"] } }, select: { user_id: true, trigger_type: true, enabled: true, trigger: true } }),
  ]);
  for (const { user_id, ...strategy } of strategies) of(user_id).strategies.push(strategy);
  for (const { user_id, ...rule } of rules) of(user_id).rules.push(rule);
  return reactors;
}

/**
 * Whether reactToLedgerEvent could do anything for the event: false only when it would queue no
 * strategy run, fire no rule and move no threshold rule's side (none of them concerns the event),
 * so the event needs nothing but to be recorded as processed.
 */
export function mayReact(event: LedgerEvent, reactors: UserReactors | undefined): boolean {
  if (!reactors) return false;
  const cause = event.payload.cause ?? null;
  for (const strategy of reactors.strategies)
    if (concerns(strategy.strategy_id, strategy.parameters as Record<string, unknown>, event) && decideReaction(cause, strategyLink(strategy.id), MONEY_MOVING_STRATEGIES.has(strategy.strategy_id)).allowed) return true;
  for (const rule of reactors.rules) {
    if (rule.trigger_type === "transaction_received" ? rule.enabled && matchesTransaction(rule.trigger as TriggerSettings<"transaction_received">, event) : thresholdConcerns(rule.trigger as TriggerSettings<"balance_threshold">, event)) return true;
  }
  return false;
}

/** A balance_threshold rule looks at the balance an event moved: its wallet and asset. */
const thresholdConcerns = (trigger: TriggerSettings<"balance_threshold">, event: LedgerEvent) =>
  event.payload.wallet_id !== null && trigger.wallet_id === event.payload.wallet_id && sameAsset(trigger.asset, unitOf(event));

/** The (wallet, asset) balances an event's threshold rules need: read outside any transaction. */
export function balancesNeeded(reactors: UserReactors | undefined, event: LedgerEvent): { wallet_id: number; asset: string }[] {
  const needed = new Map<string, { wallet_id: number; asset: string }>();
  for (const { trigger_type, trigger } of reactors?.rules ?? []) {
    const settings = trigger as TriggerSettings<"balance_threshold">;
    if (trigger_type === "balance_threshold" && thresholdConcerns(settings, event)) needed.set(balanceKey(settings.wallet_id, settings.asset), { wallet_id: settings.wallet_id, asset: settings.asset });
  }
  return [...needed.values()];
}
