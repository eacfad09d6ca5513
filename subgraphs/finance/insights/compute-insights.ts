import { newId } from "../../../lib/ids.ts";
import { listBudgets } from "../budgets/budget-view.ts";
import { userTimeZone } from "../budgets/budget-settings.ts";
import type { FinanceDb, FinanceTx } from "../db.ts";
import { budgetWarnings } from "./budget-warnings.ts";
import type { Finding } from "./finding.ts";
import { goalProgress, type GoalSource } from "./goal-progress.ts";
import { categorySpends, feesPaid, merchantCharges } from "./insight-data.ts";
import { findRecurringSeries, recurringChargeFinding, type RecurringSeries } from "./recurring-charges.ts";
import { feesFinding, overlappingSubscriptions } from "./saving-opportunities.ts";
import { spendingSpikes } from "./spending-spike.ts";
import { lockKey } from "../../../lib/db/advisory-lock.ts";
import { TRANSACTION_OPTIONS } from "../idempotency/with-idempotency.ts";
import type { ChangeSubscriber } from "../changes/change-events.ts";
import type { EventPayload } from "../../../lib/contracts/events.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";

export interface InsightDeps {
  db: FinanceDb;
  goals: GoalSource;
}

export interface InsightRun {
  /** findings that stand now, each an active (or dismissed) insight */
  found: number;
  /** active insights no longer found, now resolved */
  resolved: number;
}

/** Every rule over the user's ledger at `now`: the findings that stand. */
export async function findInsights(tx: FinanceTx, userId: string, goals: GoalSource, now: Date): Promise<Finding[]> {
  const timeZone = await userTimeZone(tx, userId);
  const series = (await merchantCharges(tx, userId, now)).map((merchant) => findRecurringSeries(merchant, now)).filter((one): one is RecurringSeries => one !== null);
  return [
    ...spendingSpikes(await categorySpends(tx, userId, now, timeZone)),
    ...series.map((one) => recurringChargeFinding(one, timeZone)),
    ...overlappingSubscriptions(series),
    ...feesFinding(await feesPaid(tx, userId, now, timeZone), timeZone),
    ...budgetWarnings(await listBudgets(tx, { user_id: userId, now }), now),
    ...goalProgress(await goals.goals(userId)),
  ];
}

/**
 * Computes the user's insights and stores them: a new finding becomes an active insight, one
 * that still stands is refreshed in place (never repeated), one found again after it was resolved
 * is active again, a dismissed one is left alone, and an active one no longer found is resolved.
 * Serialised per user (the job and an on-demand refresh may meet), in one database transaction.
 * A new insight's insight.created event is written with it, and a new budget warning's (one per
 * budget, period and threshold) budget.threshold_crossed: never again for a finding refreshed,
 * found again or dismissed.
 */
export async function computeInsights(deps: InsightDeps, userId: string, now: Date = new Date()): Promise<InsightRun> {
  return deps.db.$transaction(async (tx) => {
    await lockKey(tx, `insights:${userId}`);
    const findings = [...new Map((await findInsights(tx, userId, deps.goals, now)).map((finding) => [finding.fingerprint, finding])).values()];
    for (const finding of findings) {
      const id = newId("ins", now.getTime());
      const stored = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "finance"."insights" AS i ("id", "user_id", "type", "fingerprint", "severity", "title", "description", "data", "status", "created_at", "updated_at")
        VALUES (${id}, ${userId}, ${finding.type}, ${finding.fingerprint}, ${finding.severity}, ${finding.title}, ${finding.description}, ${JSON.stringify(finding.data)}::jsonb, 'active', ${now}, ${now})
        ON CONFLICT ("user_id", "fingerprint") DO UPDATE SET
          "severity" = EXCLUDED."severity", "title" = EXCLUDED."title", "description" = EXCLUDED."description", "data" = EXCLUDED."data",
          "status" = 'active', "resolved_at" = NULL, "updated_at" = EXCLUDED."updated_at"
        WHERE i."status" <> 'dismissed'
          AND (i."status" <> 'active' OR i."data" IS DISTINCT FROM EXCLUDED."data" OR i."description" IS DISTINCT FROM EXCLUDED."description")
        RETURNING i."id"`;
      // the id is new only when the row is: an update keeps the insight's own
      if (stored[0]?.id === id) await emitNewInsight(tx, userId, id, finding, now);
    }
    const resolved = await tx.$executeRaw`
      UPDATE "finance"."insights" SET "status" = 'resolved', "resolved_at" = ${now}, "updated_at" = ${now}
      WHERE "user_id" = ${userId} AND "status" = 'active' AND NOT ("fingerprint" = ANY(${findings.map((finding) => finding.fingerprint)}::text[]))`;
    return { found: findings.length, resolved };
  }, TRANSACTION_OPTIONS);
}

async function emitNewInsight(tx: FinanceTx, userId: string, id: string, finding: Finding, now: Date): Promise<void> {
  const { type, severity, title, description, data } = finding;
  await emitEvent(tx, { type: "insight.created", user_id: userId, resource: { type: "insight", id }, data: { id, user_id: userId, type, severity, status: "active", title, description, data, created_at: now.getTime() } });
  if (type !== "budget_warning") return;
  const budget = data as Omit<EventPayload<"budget.threshold_crossed">, "user_id">;
  await emitEvent(tx, { type: "budget.threshold_crossed", user_id: userId, resource: { type: "budget", id: budget.budget_id }, data: { ...budget, user_id: userId } });
}

/** Insights follow the user's change events (a movement, its status or category, a budget): computed again after each. */
export const insightsSubscriber = (deps: InsightDeps): ChangeSubscriber => (userId) => computeInsights(deps, userId);
