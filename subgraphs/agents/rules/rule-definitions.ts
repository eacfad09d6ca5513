import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Cron } from "croner";
import { validationError } from "../../../lib/errors/app-error.ts";
import { checkJsonAt } from "../../../lib/json-validation.ts";
import { RULE_ACTIONS, RULE_TRIGGERS, type RuleAction, type RuleTrigger } from "../../../lib/vocabulary/agents.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_TYPES } from "../../../lib/vocabulary/transactions.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";

const Decimal = (description: string) => Type.String({ pattern: "^[0-9]{1,30}(\\.[0-9]{1,18})?$", description });
const WalletId = (description: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });
const Asset = Type.String({ minLength: 1, maxLength: 32, description: "an asset symbol, e.g. USDC" });
const Crossing = Type.Union([Type.Literal("above"), Type.Literal("below")], { description: "fire when the value crosses the threshold going this way" });
const options = { additionalProperties: false };

/** Each trigger's settings. */
export const TRIGGER_SCHEMAS = {
  transaction_received: Type.Object(
    {
      type: Type.Optional(Type.Union(TRANSACTION_TYPES.map((value) => Type.Literal(value)))),
      category: Type.Optional(Type.Union(SPENDING_CATEGORIES.map((value) => Type.Literal(value)))),
      direction: Type.Optional(Type.Union(TRANSACTION_DIRECTIONS.map((value) => Type.Literal(value)))),
      wallet_id: Type.Optional(WalletId("only this wallet's transactions")),
      amount_min: Type.Optional(Decimal("amount at least this, in the transaction's asset units")),
      amount_max: Type.Optional(Decimal("amount at most this")),
    },
    { ...options, description: "a transaction is recorded that matches every filter given" },
  ),
  balance_threshold: Type.Object(
    { wallet_id: WalletId("the wallet watched"), asset: Asset, threshold: Decimal("in asset units"), crossing: Crossing },
    { ...options, description: "the wallet's available balance of the asset crosses the threshold" },
  ),
  time_based: Type.Object(
    { cron: Type.String({ minLength: 9, maxLength: 100, description: "a five-field cron expression, e.g. \"0 9 * * 1\" (Mondays 09:00)" }), time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, default: "UTC", description: "IANA time zone" })) },
    { ...options, description: "the cron expression's times, in the time zone" },
  ),
  price_alert: Type.Object({ asset: Asset, price: Decimal("USD per whole unit"), crossing: Crossing }, { ...options, description: "the asset's USD price crosses the price" }),
} satisfies Record<RuleTrigger, TSchema>;

/** Each action's settings. */
export const ACTION_SCHEMAS = {
  transfer: Type.Object(
    { from_wallet_id: WalletId("the wallet that pays"), to_wallet_id: WalletId("the wallet that receives"), asset: Asset, amount: Decimal("in asset units") },
    { ...options, description: "move money between two of your wallets on one chain (an agent-made rule needs write:transfers)" },
  ),
  notification: Type.Object({ title: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })), message: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) }, { ...options, description: "an in-app notification" }),
  strategy_trigger: Type.Object({ user_strategy_id: Type.String({ minLength: 1, maxLength: 64, description: "one of your strategies, run once" }) }, { ...options, description: "run one of your strategies" }),
} satisfies Record<RuleAction, TSchema>;

export type TriggerSettings<T extends RuleTrigger> = Static<(typeof TRIGGER_SCHEMAS)[T]>;
export type ActionSettings<A extends RuleAction> = Static<(typeof ACTION_SCHEMAS)[A]>;

/** The next time a time_based trigger fires after `after`, or null when its expression never fires again. */
export function nextCronRun(settings: { cron: string; time_zone?: string }, after: Date): Date | null {
  return new Cron(settings.cron, { timezone: settings.time_zone ?? "UTC", paused: true }).nextRun(after);
}

/**
 * A rule's trigger and action, checked: types of spec 2.10 (422 at body.trigger_type or
 * body.action_type), settings against their schemas (422 at body.trigger.<field>), a cron
 * expression croner reads in a time zone it knows (422 at body.trigger.cron).
 */
export function checkRuleDefinition(input: { trigger_type: string; trigger: unknown; action_type: string; action: unknown }) {
  const trigger_type = requireOneOf(RULE_TRIGGERS, input.trigger_type, ["body", "trigger_type"]);
  const action_type = requireOneOf(RULE_ACTIONS, input.action_type, ["body", "action_type"]);
  const trigger = checkJsonAt(TRIGGER_SCHEMAS[trigger_type], input.trigger, ["body", "trigger"]);
  const action = checkJsonAt(ACTION_SCHEMAS[action_type], input.action, ["body", "action"]);
  if (trigger_type === "time_based") {
    try {
      if (nextCronRun(trigger as TriggerSettings<"time_based">, new Date()) === null) throw new Error("never fires");
    } catch (error) {
      throw validationError(["body", "trigger", "cron"], `Value error, not a cron expression that fires in ${String(trigger.time_zone)}: ${(error as Error).message}`, trigger.cron, "value_error");
    }
  }
  return { trigger_type, trigger, action_type, action };
}
