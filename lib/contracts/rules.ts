import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { RuleAction, RuleTrigger } from "../vocabulary/agents.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_TYPES } from "../vocabulary/transactions.ts";

/**
 * How many automation hops a movement may be from what started it (a user's own movement, the
 * clock, a price): a rule or strategy may react to a user's movement (its movement is hop 1), and
 * another may react to that one (hop 2); nothing that moves money reacts to a hop-2 movement.
 * Reactions that move nothing (a notification) end a chain, so the depth does not bar them.
 */
export const MAX_AUTOMATION_DEPTH = 2;

/**
 * The bounds on rules (issue 26: nothing automation does may loop or escalate), documented in the
 * README. A notification rule has no cooldown: it moves nothing and starts no chain, and a burst of
 * the user's own transactions should each be told; its hourly cap bounds it. An every-minute
 * time_based rule fires 60 times an hour: within a notification's cap, past a money-moving one's.
 */
export const RULE_LIMITS = {
  /** least time between two firings of one rule; a trigger inside it is recorded `skipped` */
  cooldown_ms: { transfer: 30_000, strategy_trigger: 30_000, notification: 0 } satisfies Record<RuleAction, number>,
  /** firings of one rule in the last hour past which it is stopped (put in `error`) */
  firings_per_hour: { transfer: 30, strategy_trigger: 30, notification: 120 } satisfies Record<RuleAction, number>,
  /** rules a user may hold (RUL-409-001 beyond) */
  rules_per_user: 50,
} as const;

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
