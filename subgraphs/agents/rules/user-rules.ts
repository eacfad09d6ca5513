import type { AutomationFinance } from "../../../lib/automation-finance.ts";
import { RULE_LIMITS, type TriggerSettings } from "../../../lib/contracts/rules.ts";
import { lockKey } from "../../../lib/db/advisory-lock.ts";
import { sideOf } from "../../../lib/decimal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { newId } from "../../../lib/ids.ts";
import type { AgentTokenScope } from "../../../lib/vocabulary/agents.ts";
import type { AgentsDb, AgentsTx, Prisma } from "../db.ts";
import type { CreateUserRuleInput } from "../types/user-rule.ts";
import { agentWrite, storedResponse, withIdempotency } from "../idempotency.ts";
import { requireOwnWallets } from "../strategies/strategy-parameters.ts";
import { checkRuleDefinition, nextCronRun } from "./rule-definitions.ts";
import { ruleStatus } from "./rule-status.ts";

export type UserRuleRow = NonNullable<Awaited<ReturnType<AgentsDb["userRule"]["findUnique"]>>>;

export function userRuleView(row: UserRuleRow) {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    status: ruleStatus(row),
    last_error: row.last_error,
    trigger_type: row.trigger_type,
    trigger: row.trigger as Record<string, unknown>,
    action_type: row.action_type,
    action: row.action as Record<string, unknown>,
    next_run_at: row.next_run_at,
    last_fired_at: row.last_fired_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type UserRuleView = ReturnType<typeof userRuleView>;

export interface RuleDeps {
  db: AgentsDb;
  users: FederatedClient;
  finance: AutomationFinance;
}

/** Where a threshold trigger stands now, so that only a later crossing fires it; a time trigger's first time. */
async function initialState(deps: RuleDeps, userId: string, trigger_type: string, trigger: Record<string, unknown>, traceId: string, now: Date) {
  if (trigger_type === "balance_threshold") {
    const settings = trigger as TriggerSettings<"balance_threshold">;
    return { state: { side: sideOf(await deps.finance.walletAvailable(userId, settings.wallet_id, settings.asset, traceId), settings.threshold) }, next_run_at: null };
  }
  if (trigger_type === "price_alert") {
    const settings = trigger as TriggerSettings<"price_alert">;
    const price = await deps.finance.assetPrice(settings.asset, traceId);
    return { state: price === null ? null : { side: sideOf(price, settings.price) }, next_run_at: null };
  }
  if (trigger_type === "time_based") return { state: null, next_run_at: nextCronRun(trigger as TriggerSettings<"time_based">, now) };
  return { state: null, next_run_at: null };
}

/** A rule that moves money from an agent token without write:transfers: AGT-403-001 (making, enabling or editing it). */
function requireTransferScope(action_type: string, agentScopes: readonly AgentTokenScope[] | null, doing: string): void {
  if (action_type === "transfer" && agentScopes && !agentScopes.includes("write:transfers")) throw appError("AGT-403-001", `${doing} a rule that moves money needs an agent token with write:transfers.`);
}

/**
 * Creates a rule, checked (rule-definitions.ts): its wallets the user's (WAL-404-001), its
 * strategy the user's (STR-404-002), a transfer action by an agent token only with write:transfers
 * (AGT-403-001), at most RULE_LIMITS.rules_per_user rules per user (RUL-409-001). Threshold
 * triggers start from where the balance or price stands now: they fire on a later crossing, not
 * because the value already sits past the threshold. With an Idempotency-Key, a retry answers the
 * first rule made and makes none.
 */
export async function createUserRule(
  deps: RuleDeps,
  userId: string,
  input: Omit<CreateUserRuleInput, "enabled"> & { enabled: boolean | null; agent_scopes: readonly AgentTokenScope[] | null; trace_id: string; idempotency_key?: string | null },
): Promise<UserRuleView> {
  const definition = checkRuleDefinition(input);
  requireTransferScope(definition.action_type, input.agent_scopes, "Making");
  const { name, trigger_type, trigger, action_type, action, enabled } = input;
  const request = agentWrite<UserRuleView>(userId, input.idempotency_key, "create_user_rule", { name, trigger_type, trigger, action_type, action, enabled });
  const answered = await storedResponse(deps.db, request);
  if (answered) return answered;
  await requireOwnWallets(deps.users, userId, { ...definition.trigger, ...definition.action }, input.trace_id);
  if (definition.action_type === "strategy_trigger" && !(await deps.db.userStrategy.findFirst({ where: { id: String(definition.action.user_strategy_id), user_id: userId }, select: { id: true } })))
    throw appError("STR-404-002");
  const now = new Date();
  const { state, next_run_at } = await initialState(deps, userId, definition.trigger_type, definition.trigger, input.trace_id, now);
  return withIdempotency(deps.db, request, async (tx) => {
    // serialises one user's rule making, so concurrent requests cannot pass the cap together
    await lockKey(tx, `user-rules:${userId}`);
    const held = await tx.userRule.count({ where: { user_id: userId } });
    if (held >= RULE_LIMITS.rules_per_user)
      throw appError("RUL-409-001", `You have ${held} rules, the most a user may hold (${RULE_LIMITS.rules_per_user}); delete one (DELETE /v0/user/me/rules/{rule_id}) before making another.`);
    const row = await tx.userRule.create({
      data: {
        id: newId("rul", now.getTime()),
        user_id: userId,
        name: input.name,
        enabled: input.enabled ?? true,
        trigger_type: definition.trigger_type,
        trigger: definition.trigger as Prisma.InputJsonValue,
        action_type: definition.action_type,
        action: definition.action as Prisma.InputJsonValue,
        created_with_scopes: [...(input.agent_scopes ?? [])],
        ...(state && { state }),
        next_run_at,
        created_at: now,
        updated_at: now,
      },
    });
    return userRuleView(row);
  });
}

async function load(db: AgentsDb | AgentsTx, userId: string, id: string): Promise<UserRuleRow> {
  const row = await db.userRule.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("RUL-404-001");
  return row;
}

export async function listUserRules(db: AgentsDb, userId: string): Promise<UserRuleView[]> {
  return (await db.userRule.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "asc" }, { id: "asc" }] })).map(userRuleView);
}

export async function getUserRule(db: AgentsDb, userId: string, id: string): Promise<UserRuleView> {
  return userRuleView(await load(db, userId, id));
}

/**
 * Renames, enables or disables a rule (its trigger and action stay: make a new rule to change
 * them). Enabling or disabling moves it out of `error` too, its error cleared. An agent token
 * enabling or renaming a rule that moves money needs what making one needs, write:transfers
 * (AGT-403-001); disabling it alone stops money and needs only write:strategies. With an
 * Idempotency-Key, a retry answers the first change.
 */
export async function updateUserRule(
  db: AgentsDb,
  userId: string,
  id: string,
  change: { name: string | null; enabled: boolean | null; agent_scopes: readonly AgentTokenScope[] | null; idempotency_key?: string | null },
): Promise<UserRuleView> {
  return withIdempotency(db, agentWrite<UserRuleView>(userId, change.idempotency_key, "update_user_rule", { id, name: change.name, enabled: change.enabled }), async (tx) => {
    const row = await load(tx, userId, id);
    if (change.enabled !== false || change.name !== null) requireTransferScope(row.action_type, change.agent_scopes, change.enabled === true ? "Enabling" : "Editing");
    const updated = await tx.userRule.update({ where: { id: row.id }, data: { ...(change.name !== null && { name: change.name }), ...(change.enabled !== null && { enabled: change.enabled, last_error: null }) } });
    return userRuleView(updated);
  });
}

/** Deletes a rule and its firings. With an Idempotency-Key, a retry answers the rule as the first deleted it (not RUL-404-001). */
export async function deleteUserRule(db: AgentsDb, userId: string, id: string, idempotencyKey: string | null = null): Promise<UserRuleView> {
  return withIdempotency(db, agentWrite<UserRuleView>(userId, idempotencyKey, "delete_user_rule", { id }), async (tx) => {
    const row = await load(tx, userId, id);
    await tx.userRule.delete({ where: { id: row.id } });
    return userRuleView(row);
  });
}

/** A rule's firings, newest first. */
export async function listRuleExecutions(db: AgentsDb, userId: string, id: string, limit: number) {
  const rule = await load(db, userId, id);
  const rows = await db.userRuleExecution.findMany({ where: { rule_id: rule.id }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: limit });
  return rows.map((row) => ({ id: row.id, event_key: row.event_key, event: row.event as Record<string, unknown>, outcome: row.outcome, detail: row.detail, task_id: row.task_id, created_at: row.created_at }));
}
