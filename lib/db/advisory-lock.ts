/** The slice of a Prisma client (or transaction) a lock needs. */
interface RawQuery {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Holds a transaction-scoped advisory lock on `key` until the caller's database transaction
 * ends: what serialises work on one thing whose rows may not exist yet or live in another
 * subgraph's schema (a ledger source, a card, a user's insights). 64-bit hash of the key.
 */
export async function lockKey(tx: RawQuery, key: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text`, key);
}
