import { appError } from "../../../lib/errors/app-error.ts";
import type { InsightSeverity, InsightStatus, InsightStatusFilter, InsightType } from "../../../lib/vocabulary/insights.ts";
import type { FinanceTx } from "../db.ts";
import type { Insight as InsightRow } from "../generated/prisma/client.ts";
import { pageBounds } from "../transactions/list-transactions.ts";

export interface InsightView {
  id: string;
  type: InsightType;
  severity: InsightSeverity;
  status: InsightStatus;
  title: string;
  description: string;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  dismissed_at: Date | null;
}

export interface InsightFilterInput {
  type?: InsightType | null;
  /** default `active`; `all` for every status */
  status?: InsightStatusFilter | null;
}

export interface InsightPageView {
  items: InsightView[];
  pagination: { limit: number; offset: number; total: number };
}

function insightView(row: InsightRow): InsightView {
  return {
    id: row.id,
    type: row.type as InsightType,
    severity: row.severity as InsightSeverity,
    status: row.status as InsightStatus,
    title: row.title,
    description: row.description,
    data: row.data as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    resolved_at: row.resolved_at,
    dismissed_at: row.dismissed_at,
  };
}

/** The user's insights, newest first (created_at, then id), `active` unless another status is asked for. */
export async function listInsights(tx: FinanceTx, options: { user_id: string; filter?: InsightFilterInput | null; page?: { limit?: number | null; offset?: number | null } | null }): Promise<InsightPageView> {
  const type = options.filter?.type ?? undefined;
  const status = options.filter?.status ?? "active";
  const { limit, offset } = pageBounds(options.page);
  const where = { user_id: options.user_id, ...(type && { type }), ...(status !== "all" && { status }) };
  const [rows, total] = await Promise.all([
    tx.insight.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: limit, skip: offset }),
    tx.insight.count({ where }),
  ]);
  return { items: rows.map(insightView), pagination: { limit, offset, total } };
}

/** The user's insight, or INS-404-001: other users' insights do not exist. */
export async function getInsight(tx: FinanceTx, options: { user_id: string; insight_id: string }): Promise<InsightView> {
  const row = await tx.insight.findFirst({ where: { id: options.insight_id, user_id: options.user_id } });
  if (!row) throw appError("INS-404-001", `Insight ${options.insight_id} was not found for this user.`);
  return insightView(row);
}
