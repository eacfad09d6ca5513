import { runIdempotent, type IdempotentRequest } from "../../../lib/db/with-idempotency.ts";
import { Prisma, type FinanceDb, type FinanceTx } from "../db.ts";

export { TRANSACTION_OPTIONS } from "../../../lib/db/with-idempotency.ts";

/**
 * Runs `work` in one database transaction together with the Idempotency-Key row of the request
 * (finance.idempotency_keys), for every money-moving POST: the first response per user and key is
 * stored with the movement it answered, so a retry never moves money twice (lib/db/with-idempotency.ts).
 */
export function withIdempotency<T>(db: FinanceDb, request: IdempotentRequest<T>, work: (tx: FinanceTx) => Promise<T>): Promise<T> {
  return runIdempotent(db, Prisma.DbNull, request, work);
}
