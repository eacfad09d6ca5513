import { Type, type SchemaOptions, type Static, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";
import { AGENT_TASK_FINAL_STATUSES, RULE_ACTION_OUTCOMES, RULE_ACTIONS } from "../vocabulary/agents.ts";

/**
 * The outgoing event catalogue (issue 29): every type a webhook endpoint may subscribe to, named
 * `<resource>.<change>`. Producers, the identity service's subscriptions and the REST documents
 * all read this one list.
 */
export const EVENT_TYPES = [
  "user.created",
  "user.kyc_status_changed",
  "safe.deployment_completed",
  "safe.deployment_failed",
  "wallet.claimed",
  "transaction.created",
  "transaction.status_changed",
  "card.created",
  "card.status_changed",
  "card.authorization_approved",
  "card.authorization_declined",
  "bank_account.linked",
  "bank_account.login_required",
  "bank_account.unlinked",
  "ramp.status_changed",
  "budget.threshold_crossed",
  "insight.created",
  "agent_task.finished",
  "user_rule.fired",
  "webhook_endpoint.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An endpoint subscribed to `*` receives every type, including those added later. */
export const ALL_EVENT_TYPES = "*";

/** Whether an endpoint subscribed to `eventTypes` receives events of `type`. */
export function subscribesTo(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.includes(ALL_EVENT_TYPES) || eventTypes.includes(type);
}

/** Endpoints per organisation environment, at most; event types listed per endpoint, at most. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;
/** How long the previous secret still signs after a rotation, by default and at most (seconds). */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;

/**
 * Why an endpoint is disabled: its receiver answered 410 Gone, its deliveries failed for days, or
 * a member switched it off. Null while it is enabled.
 */
export const WEBHOOK_DISABLED_REASONS = ["gone", "failing", "user"] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** A delivery of one event to one endpoint: pending (owed, on the retry schedule), delivered (a 2xx answered) or failed (given up). */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** The attempts the events API shows per delivery, at most (the newest). */
export const MAX_ATTEMPTS_SHOWN = 100;

/** The longest endpoint URL taken. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const EpochMs = Type.Integer({ description: "epoch milliseconds", examples: [1795694400000] });
const UserId = Type.String({ description: "the user (`usr_…`)", examples: ["usr_01j9z3k4m5n6p7q8r9s0t1v2w3"] });
/** One of a vocabulary list (lib/vocabulary/), as REST renders it. */
const literalsOf = <const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<TLiteral<T[number]>[]> => Type.Union(values.map((value) => Type.Literal(value)), options);

const Decimal = (description: string, example: string) => Type.String({ description: `${description}, a decimal string`, examples: [example] });
/** `schema` or null; `absent`: the sample shows null (a field a sandbox deposit leaves empty) */
const Nullable = <T extends TSchema>(schema: T, absent = false) => Type.Union([schema, Type.Null()], absent ? { examples: [null] } : {});

/** A ledger movement as REST renders it (GET /v0/transactions/{id}), without its free text (description, note) and status history. */
const TransactionEventData = {
  id: Type.String({ description: "the transaction (`txn_…`)", examples: ["txn_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  user_id: UserId,
  type: Type.String({ examples: ["deposit"] }),
  status: Type.String({ description: "pending, processing, completed or failed", examples: ["completed"] }),
  direction: Type.String({ description: "in or out", examples: ["in"] }),
  amount: Decimal("in the asset's or currency's units", "25.5"),
  asset: Nullable(Type.Object({ symbol: Type.String({ examples: ["USDC"] }), decimals: Type.Integer({ examples: [6] }) })),
  currency: Nullable(Type.String({ description: "the fiat currency, for a bank account's or a card's movement; null with an asset", examples: ["USD"] }), true),
  amount_usd: Nullable(Decimal("USD value at the time", "25.5")),
  category: Nullable(Type.String({ examples: ["income"] })),
  merchant: Nullable(Type.Object({ name: Nullable(Type.String({ examples: ["Netflix"] })), mcc: Nullable(Type.String({ examples: ["4899"] })) }), true),
  wallet_id: Nullable(Type.Integer({ examples: [12] })),
  card_id: Nullable(Type.String({ examples: ["crd_01jd2x3y4z5a6b7c8d9e0f1g2h"] }), true),
  bank_account_id: Nullable(Type.String({ examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }), true),
  counterparty: Nullable(Type.String(), true),
  chain_id: Nullable(Type.Integer({ examples: [8453] })),
  tx_hash: Nullable(Type.String({ examples: ["0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"] })),
  timestamp: EpochMs,
  created_at: EpochMs,
};

/** A card as REST renders it (GET /v0/cards/{id}), without its controls, usage and shipping address. */
const CardEventData = {
  id: Type.String({ description: "the card (`crd_…`)", examples: ["crd_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  user_id: UserId,
  type: Type.String({ description: "virtual or physical", examples: ["virtual"] }),
  status: Type.String({ description: "pending, active, suspended or closed", examples: ["active"] }),
  nickname: Nullable(Type.String({ examples: ["Travel"] }), true),
  currency: Type.String({ examples: ["USD"] }),
  last_four: Type.String({ examples: ["4242"] }),
  funding_source: Type.Object({ type: Type.String({ description: "crypto_wallet or bank_account", examples: ["crypto_wallet"] }), id: Type.String({ description: "the wallet id (as a string) or bank account id", examples: ["12"] }) }),
  created_at: EpochMs,
  updated_at: EpochMs,
};

/** A sandbox card authorization as REST renders it when it is decided, its purchase named by id. */
const CardAuthorizationEventData = {
  id: Type.String({ description: "the authorization (`cau_…`)", examples: ["cau_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  card_id: Type.String({ examples: ["crd_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  user_id: UserId,
  amount: Decimal("in its currency", "12.5"),
  currency: Type.String({ examples: ["USD"] }),
  merchant: Type.Object({ name: Type.String({ examples: ["Coffee Shop"] }), mcc: Type.String({ examples: ["5814"] }) }),
  created_at: EpochMs,
};

/** A linked bank account as REST renders it (GET /v0/bank-accounts/{id}): the last four digits only, never a token. */
const BankAccountEventData = {
  id: Type.String({ description: "the bank account (`bnk_…`)", examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  user_id: UserId,
  institution_id: Type.String({ examples: ["ins_109508"] }),
  institution_name: Type.String({ examples: ["First Platypus Bank"] }),
  name: Type.String({ examples: ["Checking"] }),
  account_type: Type.String({ examples: ["checking"] }),
  currency: Type.String({ examples: ["USD"] }),
  mask: Type.String({ description: "the account number's last four digits", examples: ["0000"] }),
  balance: Nullable(Decimal("the bank's balance as last reported", "1250.00")),
  connection_status: Type.String({ description: "active, reauth_required, error or revoked", examples: ["active"] }),
  created_at: EpochMs,
};

/** A ramp as REST renders it (GET /v0/ramps/{id}) after its status moved. */
const RampEventData = {
  id: Type.String({ description: "the ramp (`rmp_…`)", examples: ["rmp_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  user_id: UserId,
  quote_id: Type.String({ examples: ["rmq_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  direction: Type.String({ description: "on (fiat to crypto) or off", examples: ["on"] }),
  status: Type.String({ description: "its ledger transaction's status: pending, processing, completed or failed", examples: ["completed"] }),
  previous_status: Type.String({ description: "the status it moved from (a report of several steps gives its start)", examples: ["processing"] }),
  transaction_id: Type.String({ examples: ["txn_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  bank_account_id: Type.String({ examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  wallet_id: Type.Integer({ examples: [12] }),
  chain_id: Type.Integer({ examples: [8453] }),
  asset: Type.String({ examples: ["USDC"] }),
  asset_amount: Decimal("the asset side", "99.5"),
  currency: Type.String({ examples: ["USD"] }),
  fiat_amount: Decimal("the fiat side", "100.00"),
  fee: Decimal("the provider's fee, in the currency", "0.50"),
  failure_reason: Nullable(Type.String({ examples: ["insufficient_funds"] }), true),
  updated_at: EpochMs,
};

/**
 * Each emitted type's `data`: the resource as the REST API renders it (ids, statuses, epoch-ms
 * instants, decimal strings for money), small, never a secret. Types not yet emitted have none.
 */
export const EVENT_PAYLOADS = {
  "user.created": Type.Object({ id: UserId, status: Type.String({ description: "the account (KYC) status it starts in", examples: ["pending"] }), created_at: EpochMs }, { title: "UserCreatedEvent" }),
  "user.kyc_status_changed": Type.Object(
    { user_id: UserId, status: Type.String({ description: "the account (KYC) status now", examples: ["approved"] }), previous_status: Type.String({ examples: ["in_progress"] }), changed_at: EpochMs },
    { title: "UserKycStatusChangedEvent" },
  ),
  "safe.deployment_completed": Type.Object(
    { wallet_id: Type.Integer({ examples: [42] }), user_id: UserId, chain_id: Type.Integer({ examples: [8453] }), address: Type.String({ description: "the deployed Safe", examples: ["0x52908400098527886E0F7030069857D2E4169EE7"] }), safe_creation_status: Type.Literal("completed") },
    { title: "SafeDeploymentCompletedEvent" },
  ),
  "safe.deployment_failed": Type.Object(
    { wallet_id: Type.Integer({ examples: [42] }), user_id: UserId, chain_id: Type.Integer({ examples: [8453] }), safe_creation_status: Type.Literal("failed") },
    { title: "SafeDeploymentFailedEvent" },
  ),
  "wallet.claimed": Type.Object(
    { pregenerated_wallet_id: Type.Integer({ examples: [7] }), user_id: UserId, address: Type.String({ examples: ["0x52908400098527886E0F7030069857D2E4169EE7"] }), wallet_type: Type.String({ examples: ["EVM"] }), claimed_at: EpochMs },
    { title: "WalletClaimedEvent" },
  ),
  "transaction.created": Type.Object(TransactionEventData, { title: "TransactionCreatedEvent" }),
  "transaction.status_changed": Type.Object(
    { ...TransactionEventData, previous_status: Type.String({ description: "the status it moved from (a walk of several steps reports its start)" }) },
    { title: "TransactionStatusChangedEvent" },
  ),
  "card.created": Type.Object(CardEventData, { title: "CardCreatedEvent" }),
  "card.status_changed": Type.Object({ ...CardEventData, previous_status: Type.String({ description: "the status it moved from", examples: ["suspended"] }) }, { title: "CardStatusChangedEvent" }),
  "card.authorization_approved": Type.Object(
    { ...CardAuthorizationEventData, decision: Type.Literal("approved"), status: Type.Literal("pending"), transaction_id: Type.String({ description: "the pending card_purchase it booked", examples: ["txn_01jd2x3y4z5a6b7c8d9e0f1g2h"] }) },
    { title: "CardAuthorizationApprovedEvent" },
  ),
  "card.authorization_declined": Type.Object(
    { ...CardAuthorizationEventData, decision: Type.Literal("declined"), status: Type.Literal("declined"), decline_reason: Type.String({ description: "why (the authorization's decline_reason)", examples: ["insufficient_funds"] }) },
    { title: "CardAuthorizationDeclinedEvent" },
  ),
  "bank_account.linked": Type.Object(BankAccountEventData, { title: "BankAccountLinkedEvent" }),
  "bank_account.login_required": Type.Object(
    { ...BankAccountEventData, previous_connection_status: Type.String({ description: "the connection's status before the bank asked for a new login", examples: ["active"] }) },
    { title: "BankAccountLoginRequiredEvent" },
  ),
  "bank_account.unlinked": Type.Object({ ...BankAccountEventData, unlinked_at: EpochMs }, { title: "BankAccountUnlinkedEvent" }),
  "ramp.status_changed": Type.Object(RampEventData, { title: "RampStatusChangedEvent" }),
  "budget.threshold_crossed": Type.Object(
    {
      budget_id: Type.String({ examples: ["bgt_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
      user_id: UserId,
      category: Type.String({ examples: ["dining"] }),
      period: Type.String({ examples: ["monthly"] }),
      period_start: EpochMs,
      period_end: EpochMs,
      currency: Type.String({ examples: ["USD"] }),
      amount: Decimal("the budget's limit", "400"),
      spent: Decimal("spent in the period", "330.5"),
      remaining: Decimal("left in the period (negative once over)", "69.5"),
      percentage_used: Type.Number({ examples: [82.63] }),
      threshold: Type.Integer({ description: "the share (percent) crossed: 80 or 100, once per budget, period and share", examples: [80] }),
    },
    { title: "BudgetThresholdCrossedEvent" },
  ),
  "insight.created": Type.Object(
    {
      id: Type.String({ description: "the insight (`ins_…`)", examples: ["ins_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
      user_id: UserId,
      type: Type.String({ examples: ["spending_spike"] }),
      severity: Type.String({ description: "info, warning or critical", examples: ["warning"] }),
      status: Type.Literal("active"),
      title: Type.String({ examples: ["Dining spending is up"] }),
      description: Type.String({ examples: ["You spent 420.00 USD on dining this month, 2.1 times your usual."] }),
      data: Type.Record(Type.String(), Type.Unknown(), { description: "the figures it was computed from, as GET /v0/insights answers them" }),
      created_at: EpochMs,
    },
    { title: "InsightCreatedEvent" },
  ),
  "agent_task.finished": Type.Object(
    {
      id: Type.String({ description: "the task (`tsk_…`)", examples: ["tsk_01j9z3k4m5n6p7q8r9s0t1v2w3"] }),
      user_id: UserId,
      kind: Type.String({ description: "what it does, e.g. `strategy_run`, `transfer`", examples: ["strategy_run"] }),
      status: literalsOf(AGENT_TASK_FINAL_STATUSES, { description: "the final status it reached (spec 3.5)" }),
      error: Type.Union([Type.String(), Type.Null()], { description: "why it failed; null unless failed", examples: [null] }),
      user_strategy_id: Type.Union([Type.String(), Type.Null()], { description: "the user strategy it ran (`strategy_run`)", examples: ["ust_01j9z3k4m5n6p7q8r9s0t1v2w3"] }),
      attempts: Type.Integer({ description: "runs started", examples: [1] }),
      scheduled_at: EpochMs,
      finished_at: EpochMs,
    },
    { title: "AgentTaskFinishedEvent" },
  ),
  "user_rule.fired": Type.Object(
    {
      id: Type.String({ description: "the firing (`rex_…`), as GET /v0/user/me/rules/{rule_id}/executions lists it", examples: ["rex_01j9z3k4m5n6p7q8r9s0t1v2w3"] }),
      rule_id: Type.String({ description: "the rule (`rul_…`)", examples: ["rul_01j9z3k4m5n6p7q8r9s0t1v2w3"] }),
      user_id: UserId,
      action_type: literalsOf(RULE_ACTIONS),
      outcome: literalsOf(RULE_ACTION_OUTCOMES, { description: "`fired`: its action done or queued; `failed`: its action could not start (`detail` says why). Firings skipped inside the cooldown or stopped are not events" }),
      detail: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
      task_id: Type.Union([Type.String(), Type.Null()], { description: "the agent task its action queued (transfer, strategy_trigger); its agent_task.finished follows", examples: [null] }),
      event_key: Type.String({ description: "what fired it: ledger:<event>, time:<slot>, price:<asset>:<side>:<instant>", examples: ["ledger:1042"] }),
      created_at: EpochMs,
    },
    { title: "UserRuleFiredEvent" },
  ),
  "webhook_endpoint.disabled": Type.Object(
    {
      id: Type.String({ description: "the endpoint (`whe_…`)", examples: ["whe_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
      url: Type.String({ examples: ["https://hooks.example.com/platform"] }),
      disabled_reason: Type.Union([Type.Literal("gone"), Type.Literal("failing")], { description: "gone: its receiver answered 410; failing: every attempt failed for five days" }),
      failing_since: Type.Union([EpochMs, Type.Null()], { description: "when its unbroken run of failed attempts began (failing); null for gone" }),
      disabled_at: EpochMs,
    },
    { title: "WebhookEndpointDisabledEvent" },
  ),
} satisfies Partial<Record<EventType, TSchema>>;
export type EmittedEventType = keyof typeof EVENT_PAYLOADS;
export type EventPayload<T extends EmittedEventType> = Static<(typeof EVENT_PAYLOADS)[T]>;
