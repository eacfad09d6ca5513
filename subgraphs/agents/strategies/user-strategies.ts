import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { UserSetStrategyStatus, UserStrategyStatus } from "../../../lib/vocabulary/agents.ts";
import { Prisma, type AgentsDb, type AgentsTx } from "../db.ts";
import { agentWrite, storedResponse, withIdempotency } from "../idempotency.ts";
import type { EnableStrategyInput } from "../types/strategy.ts";
import { findStrategy, strategyView } from "./strategy-catalogue.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { requireOwnWallets, validateParameters } from "./strategy-parameters.ts";
import { requireUserStrategyMove, type UserStrategyCause } from "./user-strategy-status.ts";

const WITH_STRATEGY = { strategy: true, status_history: { orderBy: { id: "asc" } } } as const;
type UserStrategyRow = Prisma.UserStrategyGetPayload<{ include: typeof WITH_STRATEGY }>;

/** A user strategy as the API shows it: its catalogue entry folded in, its status history. */
export function userStrategyView(row: UserStrategyRow) {
  const { parameters_schema: _schema, ...strategy } = strategyView(row.strategy);
  return {
    id: row.id,
    strategy,
    parameters: row.parameters as Record<string, unknown>,
    status: row.status as UserStrategyStatus,
    last_error: row.last_error,
    consecutive_failures: row.consecutive_failures,
    last_run_at: row.last_run_at,
    status_history: row.status_history.map((change) => ({ from: change.from, to: change.to, cause: change.cause, changed_at: change.changed_at })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type UserStrategyView = ReturnType<typeof userStrategyView>;

async function load(db: AgentsDb | AgentsTx, userId: string, id: string): Promise<UserStrategyRow> {
  const row = await db.userStrategy.findFirst({ where: { id, user_id: userId }, include: WITH_STRATEGY });
  if (!row) throw appError("STR-404-002");
  return row;
}

/**
 * Enables a catalogue strategy for the user with its parameters (checked against its schema,
 * defaults filled in). With an Idempotency-Key, a retry answers the first strategy made.
 */
export async function enableStrategy(
  db: AgentsDb,
  users: FederatedClient,
  userId: string,
  input: EnableStrategyInput & { trace_id: string; idempotency_key?: string | null },
): Promise<UserStrategyView> {
  const request = agentWrite<UserStrategyView>(userId, input.idempotency_key, "enable_strategy", { strategy_id: input.strategy_id, parameters: input.parameters });
  const answered = await storedResponse(db, request);
  if (answered) return answered;
  const strategy = await findStrategy(db, input.strategy_id);
  const parameters = validateParameters(strategy, input.parameters);
  await requireOwnWallets(users, userId, parameters, input.trace_id);
  const now = new Date();
  return withIdempotency(db, request, async (tx) => {
    const row = await tx.userStrategy.create({
      data: {
        id: newId("ust", now.getTime()),
        user_id: userId,
        strategy_id: strategy.id,
        parameters: parameters as Prisma.InputJsonValue,
        status: "enabled",
        // a scheduled strategy's first run is due at once
        next_run_at: strategy.id === "stg_recurring_buy" ? now : null,
        created_at: now,
        updated_at: now,
        status_history: { create: { from: null, to: "enabled", cause: "user", changed_at: now } },
      },
      include: WITH_STRATEGY,
    });
    return userStrategyView(row);
  });
}

export async function listUserStrategies(db: AgentsDb, userId: string, status: UserStrategyStatus | null): Promise<UserStrategyView[]> {
  const where = { user_id: userId, ...(status !== null && { status }) };
  return (await db.userStrategy.findMany({ where, include: WITH_STRATEGY, orderBy: [{ created_at: "asc" }, { id: "asc" }] })).map(userStrategyView);
}

export async function getUserStrategy(db: AgentsDb, userId: string, id: string): Promise<UserStrategyView> {
  return userStrategyView(await load(db, userId, id));
}

/**
 * Moves the user strategy through the one table (user-strategy-status.ts), with its history row,
 * in the caller's transaction. The update matches only the status read, so of two concurrent
 * moves one applies and the other is refused with the status it then finds. Enabling again
 * clears the failure count and the last error.
 */
export async function moveUserStrategy(tx: AgentsTx, row: { id: string; status: string }, to: UserStrategyStatus, cause: UserStrategyCause, error: string | null = null): Promise<void> {
  const from = row.status as UserStrategyStatus;
  requireUserStrategyMove(from, to, cause);
  const now = new Date();
  const reset = to === "enabled" ? { consecutive_failures: 0, last_error: null } : to === "error" ? { last_error: error } : {};
  const { count } = await tx.userStrategy.updateMany({ where: { id: row.id, status: from }, data: { status: to, updated_at: now, ...reset } });
  if (count === 0) throw appError("STR-409-001", "The strategy changed while it was being moved; read it again.");
  await tx.userStrategyStatusChange.create({ data: { user_strategy_id: row.id, from, to, cause, changed_at: now } });
}

/**
 * The user changes their strategy: new `parameters` (checked as at enabling) and/or `status`
 * (enabled or disabled, through the one table: STR-409-001 otherwise). Both are checked before
 * either is written, in one transaction: a refused change leaves the strategy as it was. With an
 * Idempotency-Key, a retry answers the first change.
 */
export async function updateUserStrategy(
  db: AgentsDb,
  users: FederatedClient,
  userId: string,
  id: string,
  change: { parameters: unknown | null; status: UserSetStrategyStatus | null; trace_id: string; idempotency_key?: string | null },
): Promise<UserStrategyView> {
  const request = agentWrite<UserStrategyView>(userId, change.idempotency_key, "update_user_strategy", { id, parameters: change.parameters, status: change.status });
  const answered = await storedResponse(db, request);
  if (answered) return answered;
  const to = change.status;
  const before = await load(db, userId, id);
  const checked = change.parameters === null ? null : validateParameters(before.strategy, change.parameters);
  // asked of the users service outside the transaction: on the embedded database it needs the one connection
  if (checked !== null) await requireOwnWallets(users, userId, checked, change.trace_id);
  return withIdempotency(db, request, async (tx) => {
    const current = await load(tx, userId, id);
    const parameters = checked;
    if (to !== null) requireUserStrategyMove(current.status as UserStrategyStatus, to, "user");
    if (parameters !== null) await tx.userStrategy.update({ where: { id: current.id }, data: { parameters: parameters as Prisma.InputJsonValue } });
    if (to !== null) await moveUserStrategy(tx, current, to, "user");
    if (to === "enabled" && current.strategy_id === "stg_recurring_buy") await tx.userStrategy.update({ where: { id: current.id }, data: { next_run_at: new Date() } });
    return userStrategyView(await load(tx, userId, id));
  });
}

/**
 * Deletes the user strategy and its history; its past tasks stay (they name it by id). With an
 * Idempotency-Key, a retry answers the strategy as the first deleted it (not STR-404-002).
 */
export async function deleteUserStrategy(db: AgentsDb, userId: string, id: string, idempotencyKey: string | null = null): Promise<UserStrategyView> {
  return withIdempotency(db, agentWrite<UserStrategyView>(userId, idempotencyKey, "delete_user_strategy", { id }), async (tx) => {
    const row = await load(tx, userId, id);
    await tx.userStrategy.delete({ where: { id: row.id } });
    return userStrategyView(row);
  });
}
