/**
 * Spec 2.10: what an agent token may do. A write scope does not include the read scope of the
 * same data: a token that should read and write asks for both.
 */
export const AGENT_TOKEN_SCOPES = ["read:transactions", "read:balances", "write:transfers", "write:strategies"] as const;
export type AgentTokenScope = (typeof AGENT_TOKEN_SCOPES)[number];

/** Spec 2.10's chat message types. */
export const CHAT_MESSAGE_TYPES = ["user", "assistant", "tool_call", "tool_result"] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

/** A proposed chat action's states (subgraphs/agents/chat/chat-action-status.ts); `expired` is a proposal past its expires_at. */
export const CHAT_ACTION_STATUSES = ["proposed", "confirmed", "completed", "failed", "declined", "expired"] as const;
export type ChatActionStatus = (typeof CHAT_ACTION_STATUSES)[number];

/** Spec 2.10's strategy categories. */
export const STRATEGY_CATEGORIES = ["savings", "investing", "spending", "alerts"] as const;
export type StrategyCategory = (typeof STRATEGY_CATEGORIES)[number];

/** Spec 3.6's user strategy states (the moves: subgraphs/agents/strategies/user-strategy-status.ts). */
export const USER_STRATEGY_STATUSES = ["enabled", "disabled", "error"] as const;
export type UserStrategyStatus = (typeof USER_STRATEGY_STATUSES)[number];
/** The states a user moves their strategy to; `error` is its failing runs'. */
export const USER_SET_STRATEGY_STATUSES = ["enabled", "disabled"] as const satisfies readonly UserStrategyStatus[];
export type UserSetStrategyStatus = (typeof USER_SET_STRATEGY_STATUSES)[number];

/** Spec 3.5's agent task states (the moves: subgraphs/agents/tasks/task-status.ts). */
export const AGENT_TASK_STATUSES = ["queued", "next", "running", "completed", "failed", "cancelled"] as const;
export type AgentTaskStatus = (typeof AGENT_TASK_STATUSES)[number];
/** The statuses a task ends in; none moves on (agent_task.finished reports reaching one). */
export const AGENT_TASK_FINAL_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly AgentTaskStatus[];
export type AgentTaskFinalStatus = (typeof AGENT_TASK_FINAL_STATUSES)[number];

/** Spec 2.10's rule triggers and actions (their settings: subgraphs/agents/rules/rule-definitions.ts). */
export const RULE_TRIGGERS = ["transaction_received", "balance_threshold", "time_based", "price_alert"] as const;
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];
export const RULE_ACTIONS = ["transfer", "notification", "strategy_trigger"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/**
 * A user rule's states, spec 3.6's user strategy states (subgraphs/agents/rules/rule-status.ts):
 * the user enables and disables; automation puts a rule in `error` when it stops a loop.
 */
export const USER_RULE_STATUSES = ["enabled", "disabled", "error"] as const;
export type UserRuleStatus = (typeof USER_RULE_STATUSES)[number];
/** What one firing of a rule did (subgraphs/agents/rules/fire-rule.ts). */
export const RULE_EXECUTION_OUTCOMES = ["fired", "failed", "skipped", "stopped"] as const;
export type RuleExecutionOutcome = (typeof RULE_EXECUTION_OUTCOMES)[number];
/** The firings whose action was run or tried (user_rule.fired); a skipped or stopped one ran none. */
export const RULE_ACTION_OUTCOMES = ["fired", "failed"] as const satisfies readonly RuleExecutionOutcome[];
export type RuleActionOutcome = (typeof RULE_ACTION_OUTCOMES)[number];

/** Spec 2.10's widget types. */
export const WIDGET_TYPES = ["balance", "transactions", "chat", "budget"] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** Spec 2.10's connector types, and spec 3.6's user connection states (the moves: subgraphs/agents/connectors/connector-status.ts). */
export const CONNECTOR_TYPES = ["exchange", "bank", "accounting", "tax"] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
export const USER_CONNECTOR_STATUSES = ["connected", "disconnected", "error"] as const;
export type UserConnectorStatus = (typeof USER_CONNECTOR_STATUSES)[number];
