import type { FinanceTx } from "../db.ts";
import { getInsight, type InsightView } from "./insight-queries.ts";

/** Dismisses the user's insight for good (computing again never brings it back); dismissing twice changes nothing. */
export async function dismissInsight(tx: FinanceTx, options: { user_id: string; insight_id: string; now?: Date }): Promise<InsightView> {
  const insight = await getInsight(tx, options);
  if (insight.status === "dismissed") return insight;
  const now = options.now ?? new Date();
  await tx.insight.updateMany({ where: { id: insight.id, user_id: options.user_id, status: { not: "dismissed" } }, data: { status: "dismissed", dismissed_at: now, updated_at: now } });
  return getInsight(tx, options);
}
