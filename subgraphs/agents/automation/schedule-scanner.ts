import type { AutomationFinance } from "../../../lib/automation-finance.ts";
import type { TriggerSettings } from "../../../lib/contracts/rules.ts";
import type { JobHandler, JobOutcome } from "../../../lib/jobs/job-queue.ts";
import type { Logger } from "../../../lib/logger.ts";
import { tracedWork } from "../../../lib/tracing.ts";
import type { AgentsDb } from "../db.ts";
import { fireRule } from "../rules/fire-rule.ts";
import { nextCronRun } from "../rules/rule-definitions.ts";
import { sideOf } from "../../../lib/decimal.ts";
import { insertAgentTask } from "../tasks/agent-tasks.ts";
import { causeOfReaction, strategyLink } from "./causation.ts";

/** The standing job that fires what runs by the clock: time_based and price_alert rules, scheduled strategies. */
export const SCHEDULE_JOB = "automation_schedule";
const SCAN_MS = 10_000;
const BATCH = 200;
const DAY_MS = 86_400_000;

/** How far apart a recurring buy's runs are. */
export const FREQUENCY_MS: Record<string, number> = { daily: DAY_MS, weekly: 7 * DAY_MS, monthly: 30 * DAY_MS };

/**
 * One pass of the clock: each due time_based rule fires once for its slot (the execution is keyed
 * by the slot's instant, the next slot computed by croner in its time zone); each price_alert rule
 * moves to the side its asset's price stands on, firing on a crossing in its direction; each due
 * recurring buy gets its strategy run for its slot. A slot missed while the service was down
 * fires once when it is back, not once per missed slot.
 */
export function scheduleScanner(options: { db: AgentsDb; finance: AutomationFinance; logger: Logger }): JobHandler {
  const { db, finance, logger } = options;

  async function timeRules(now: Date): Promise<void> {
    const due = await db.userRule.findMany({ where: { trigger_type: "time_based", enabled: true, next_run_at: { lte: now } }, take: BATCH });
    if (due.length === 0) return;
    await tracedWork(async () => {
      for (const rule of due) {
        const slot = rule.next_run_at!;
        await db.$transaction(async (tx) => {
          const { count } = await tx.userRule.updateMany({ where: { id: rule.id, next_run_at: slot }, data: { next_run_at: nextCronRun(rule.trigger as TriggerSettings<"time_based">, now) } });
          if (count === 1) await fireRule(tx, rule, { key: `time:${slot.getTime()}`, data: { scheduled_for: slot.getTime() }, description: `Scheduled for ${slot.toISOString()}.` }, now);
        });
      }
    });
  }

  async function priceRules(now: Date): Promise<void> {
    // every price rule each pass (a price is read once per asset; a rule is a comparison): none waits behind others
    const rules = await db.userRule.findMany({ where: { trigger_type: "price_alert" } });
    if (rules.length === 0) return;
    // with price rules every pass reads prices and compares: work, traced
    await tracedWork(async () => {
      const prices = new Map<string, string | null>();
      for (const rule of rules) {
        const trigger = rule.trigger as TriggerSettings<"price_alert">;
        const symbol = trigger.asset.toUpperCase();
        if (!prices.has(symbol)) prices.set(symbol, await finance.assetPrice(symbol, "automation-schedule"));
        const price = prices.get(symbol);
        if (price == null) continue;
        const side = sideOf(price, trigger.price);
        const previous = (rule.state as { side?: string } | null)?.side;
        if (side === previous) continue;
        await db.$transaction(async (tx) => {
          await tx.userRule.update({ where: { id: rule.id }, data: { state: { side } } });
          if (rule.enabled && previous !== undefined && side === trigger.crossing)
            await fireRule(tx, rule, { key: `price:${symbol}:${side}:${now.getTime()}`, data: { asset: symbol, price, threshold: trigger.price }, description: `${symbol} is at ${price} USD, now ${side} ${trigger.price}.` }, now);
        });
      }
    });
  }

  async function scheduledStrategies(now: Date): Promise<void> {
    const due = await db.userStrategy.findMany({ where: { strategy_id: "stg_recurring_buy", status: "enabled", next_run_at: { lte: now } }, take: BATCH });
    if (due.length === 0) return;
    await tracedWork(async () => {
      for (const strategy of due) {
        const slot = strategy.next_run_at!;
        const every = FREQUENCY_MS[String((strategy.parameters as { frequency?: string }).frequency)] ?? 7 * DAY_MS;
        // the next slot after now: a service down for a while runs the missed ones as one
        const next = new Date(slot.getTime() + Math.max(1, Math.ceil((now.getTime() - slot.getTime() + 1) / every)) * every);
        await db.$transaction(async (tx) => {
          const { count } = await tx.userStrategy.updateMany({ where: { id: strategy.id, next_run_at: slot }, data: { next_run_at: next } });
          const dedupe_key = `schedule:${strategy.id}:${slot.getTime()}`;
          if (count === 1)
            await insertAgentTask(
              tx,
              { user_id: strategy.user_id, kind: "strategy_run", title: `Recurring buy ${strategy.id}`, input: { user_strategy_id: strategy.id }, scheduled_at: now, user_strategy_id: strategy.id, dedupe_key, cause: causeOfReaction(null, dedupe_key, [strategyLink(strategy.id)], dedupe_key) },
              now,
            );
        });
      }
    });
  }

  return {
    async run(): Promise<JobOutcome> {
      const now = new Date();
      for (const [name, step] of [["time rules", timeRules], ["price rules", priceRules], ["scheduled strategies", scheduledStrategies]] as const) {
        try {
          await step(now);
        } catch (error) {
          // one part failing (finance away for prices) leaves the others to run; it tries again next pass
          logger.warn({ err: error }, `automation schedule: ${name} failed`);
        }
      }
      return { outcome: "later", afterMs: SCAN_MS };
    },
  };
}
