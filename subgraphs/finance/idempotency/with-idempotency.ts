import { appError } from "../../../lib/errors/app-error.ts";
import { idempotencyRequestHash, IDEMPOTENCY_KEY_RETENTION_MS, requireIdempotencyKey } from "../../../lib/idempotency.ts";
import { Prisma, type FinanceDb, type FinanceTx } from "../db.ts";

export interface IdempotentRequest<T> {
  user_id: string;
  /** the Idempotency-Key header; null or undefined: no idempotency, the work just runs */
  key: string | null | undefined;
  /** the GraphQL field, so one key cannot answer two operations */
  operation: string;
  /** the operation's arguments, without the key */
  args: unknown;
  /** the response as JSON to store, and back */
  snapshot(result: T): unknown;
  restore(json: unknown): T;
}

/** Long enough for a movement queued behind others on one source's lock (and for other finance work that waits on a lock). */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/**
 * Runs `work` in one database transaction together with the Idempotency-Key row of the request,
 * for every money-moving POST. The row is claimed first (INSERT … ON CONFLICT DO NOTHING): a
 * concurrent duplicate waits on it until the first commits and then answers its stored response,
 * so money moves once; if the first fails, nothing was stored and the duplicate runs itself.
 * Same key, other request (operation or arguments): TXN-422-001. Only successes are stored: a
 * refused request may be retried with the same key once the cause is fixed. Keys older than
 * IDEMPOTENCY_KEY_RETENTION_MS start afresh.
 */
export async function withIdempotency<T>(db: FinanceDb, request: IdempotentRequest<T>, work: (tx: FinanceTx) => Promise<T>): Promise<T> {
  if (request.key == null) return db.$transaction((tx) => work(tx), TRANSACTION_OPTIONS);
  const key = requireIdempotencyKey(request.key);
  const requestHash = idempotencyRequestHash(request.operation, request.args);
  return db.$transaction(async (tx) => {
    const { count } = await tx.idempotencyKey.createMany({ data: [{ user_id: request.user_id, key, request_hash: requestHash }], skipDuplicates: true });
    if (count === 0) {
      const stored = await tx.idempotencyKey.findUniqueOrThrow({ where: { user_id_key: { user_id: request.user_id, key } } });
      if (Date.now() - stored.created_at.getTime() < IDEMPOTENCY_KEY_RETENTION_MS) {
        if (stored.request_hash !== requestHash) throw appError("TXN-422-001", `The Idempotency-Key ${key} was used with a different request.`);
        if (stored.response !== null) return request.restore(stored.response);
      }
      // expired (or, defensively, never answered): the key starts afresh, the row locked by this update
      await tx.idempotencyKey.update({ where: { user_id_key: { user_id: request.user_id, key } }, data: { request_hash: requestHash, response: Prisma.DbNull, created_at: new Date() } });
    }
    const result = await work(tx);
    await tx.idempotencyKey.update({ where: { user_id_key: { user_id: request.user_id, key } }, data: { response: request.snapshot(result) as Prisma.InputJsonValue } });
    return result;
  }, TRANSACTION_OPTIONS);
}
