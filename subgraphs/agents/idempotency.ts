import { fromJsonSnapshot, jsonSnapshot, runIdempotent, type IdempotentRequest } from "../../lib/db/with-idempotency.ts";
import { Prisma, type AgentsDb, type AgentsTx } from "./db.ts";

export { storedResponse } from "../../lib/db/with-idempotency.ts";

/** An agent write (an AgentAction's mutation) keyed by its Idempotency-Key: its answer is stored as JSON and revived. */
export function agentWrite<T>(user_id: string, key: string | null | undefined, operation: string, args: unknown): IdempotentRequest<T> {
  return { user_id, key, operation, args, snapshot: jsonSnapshot, restore: fromJsonSnapshot<T> };
}

/**
 * Runs an agent write in one transaction with its Idempotency-Key row (agents.idempotency_keys):
 * the first answer per user and key is stored with the write, so a retry changes nothing twice
 * and answers the same (lib/db/with-idempotency.ts); without a key the write just runs.
 */
export function withIdempotency<T>(db: AgentsDb, request: IdempotentRequest<T>, work: (tx: AgentsTx) => Promise<T>): Promise<T> {
  return runIdempotent(db, Prisma.DbNull, request, work);
}
