/** Spec 2.10: what an insight found (the rules: subgraphs/finance/insights/). */
export const INSIGHT_TYPES = ["spending_spike", "recurring_charge", "saving_opportunity", "budget_warning", "goal_progress"] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

/** `active` while the finding stands, `resolved` once it no longer does, `dismissed` by the user. */
export const INSIGHT_STATUSES = ["active", "resolved", "dismissed"] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

/** What a list of insights filters on: a status, or `all`. */
export const INSIGHT_STATUS_FILTERS = [...INSIGHT_STATUSES, "all"] as const;
export type InsightStatusFilter = (typeof INSIGHT_STATUS_FILTERS)[number];

/** How much an insight asks for the user's attention. */
export const INSIGHT_SEVERITIES = ["info", "warning", "critical"] as const;
export type InsightSeverity = (typeof INSIGHT_SEVERITIES)[number];
