import type { FinanceTx } from "../db.ts";
import type { BudgetSettings, UpdateBudgetSettingsInput } from "../types/budget.ts";
import { DEFAULT_TIME_ZONE, parseTimeZone } from "./budget-period.ts";

/** The zone the user's budget periods begin in: their setting, else UTC. */
export async function userTimeZone(tx: FinanceTx, userId: string): Promise<string> {
  const row = await tx.userSetting.findUnique({ where: { user_id: userId }, select: { time_zone: true } });
  return row?.time_zone ?? DEFAULT_TIME_ZONE;
}

/** The user's budget settings (finance.user_settings); a user who never set one has the defaults. */
export async function getBudgetSettings(tx: FinanceTx, options: { user_id: string }): Promise<BudgetSettings> {
  return { time_zone: await userTimeZone(tx, options.user_id) };
}

/** Sets the user's time zone (an IANA name, stored in its canonical spelling; else GEN-422-001 at time_zone). */
export async function updateBudgetSettings(tx: FinanceTx, options: UpdateBudgetSettingsInput & { user_id: string }): Promise<BudgetSettings> {
  const timeZone = parseTimeZone(options.time_zone, ["time_zone"]);
  await tx.userSetting.upsert({ where: { user_id: options.user_id }, create: { user_id: options.user_id, time_zone: timeZone }, update: { time_zone: timeZone } });
  return { time_zone: timeZone };
}
