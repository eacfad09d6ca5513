import { Cron } from "croner";
import { ACTION_SCHEMAS, TRIGGER_SCHEMAS, type TriggerSettings } from "../../../lib/contracts/rules.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import { checkJsonAt } from "../../../lib/json-validation.ts";
import type { CreateUserRuleInput } from "../types/user-rule.ts";

/** The next time a time_based trigger fires after `after`, or null when its expression never fires again. */
export function nextCronRun(settings: { cron: string; time_zone?: string }, after: Date): Date | null {
  return new Cron(settings.cron, { timezone: settings.time_zone ?? "UTC", paused: true }).nextRun(after);
}

/**
 * A rule's trigger and action, checked: settings against their type's schema (422 at
 * trigger.<field>), a cron expression croner reads in a time zone it knows (422 at trigger.cron).
 * The types are GraphQL enums: the API refuses others before this runs.
 */
export function checkRuleDefinition(input: Pick<CreateUserRuleInput, "trigger_type" | "trigger" | "action_type" | "action">) {
  const { trigger_type, action_type } = input;
  const trigger = checkJsonAt(TRIGGER_SCHEMAS[trigger_type], input.trigger, ["trigger"]);
  const action = checkJsonAt(ACTION_SCHEMAS[action_type], input.action, ["action"]);
  if (trigger_type === "time_based") {
    try {
      if (nextCronRun(trigger as TriggerSettings<"time_based">, new Date()) === null) throw new Error("never fires");
    } catch (error) {
      throw validationError(["trigger", "cron"], `Value error, not a cron expression that fires in ${String(trigger.time_zone)}: ${(error as Error).message}`, trigger.cron, "value_error");
    }
  }
  return { trigger_type, trigger, action_type, action };
}
