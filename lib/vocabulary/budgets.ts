/** Spec 2.10: how a budget's period resets (weekly on Monday, monthly on the 1st, custom: the user's start and end). */
export const BUDGET_PERIODS = ["weekly", "monthly", "custom"] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
