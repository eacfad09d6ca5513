import { appError } from "../errors/app-error.ts";
import { idempotencyKeyCutoff, idempotencyRequestHash, requireIdempotencyKey } from "../idempotency.ts";

// The Idempotency-Key of money-moving POSTs and agent writes, kept by each subgraph in its own
// `idempotency_keys` table (same columns: user_id, key, request_hash, response, created_at), in the
// database transaction of the write it answers.

type KeyWhere = { user_id_key: { user_id: string; key: string } };

/** The Prisma delegate of a subgraph's `idempotency_keys` table; `J`: what its client takes for a JSON column. */
export interface IdempotencyKeyTable<J> {
  createMany(args: { data: { user_id: string; key: string; request_hash: string }[]; skipDuplicates: true }): PromiseLike<{ count: number }>;
  findUnique(args: { where: KeyWhere }): PromiseLike<{ request_hash: string; response: unknown; created_at: Date } | null>;
  update(args: { where: KeyWhere; data: { request_hash?: string; response: J; created_at?: Date } }): PromiseLike<unknown>;
  updateMany(args: { where: { user_id: string; key: string; created_at: { lte: Date } }; data: { request_hash: string; response: J; created_at: Date } }): PromiseLike<{ count: number }>;
}

export interface IdempotentTx<J> {
  idempotencyKey: IdempotencyKeyTable<J>;
}

/** A subgraph's database client: its `idempotency_keys` table and interactive transactions. */
export interface IdempotentDb<J, Tx extends IdempotentTx<J>> extends IdempotentTx<J> {
  $transaction<R>(work: (tx: Tx) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

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

/** Long enough for a write queued behind others on one lock (and for other work that waits on a lock). */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** A view as the JSON an Idempotency-Key row keeps (Dates become ISO strings). */
export function jsonSnapshot(view: unknown): unknown {
  return JSON.parse(JSON.stringify(view));
}

/** Instants in a stored response: the names spec 2.1 gives timestamps (`*_at`, `timestamp`, `period_*`). */
function isInstantField(name: string): boolean {
  return name.endsWith("_at") || name === "timestamp" || name === "period_start" || name === "period_end";
}

/** A stored view back, its instants Dates again, at any depth. */
export function fromJsonSnapshot<T>(json: unknown): T {
  const revive = (value: unknown, key: string): unknown => {
    if (typeof value === "string" && isInstantField(key)) return new Date(value);
    if (Array.isArray(value)) return value.map((item) => revive(item, ""));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, revive(inner, name)]));
    return value;
  };
  return revive(json, "") as T;
}

function expired(row: { created_at: Date }): boolean {
  return row.created_at <= idempotencyKeyCutoff();
}

/** The key's live row: the stored response to answer again, or TXN-422-001 for the same key with another request; undefined when it starts afresh. */
function answered<T>(row: { request_hash: string; response: unknown; created_at: Date } | null, request: IdempotentRequest<T>, key: string, requestHash: string): { response: T } | undefined {
  if (!row || expired(row)) return undefined;
  if (row.request_hash !== requestHash) throw appError("TXN-422-001", `The Idempotency-Key ${key} was used with a different request.`);
  return row.response === null ? undefined : { response: request.restore(row.response) };
}

/**
 * Runs `work` in one database transaction together with the Idempotency-Key row of the request.
 * The row is claimed first (INSERT … ON CONFLICT DO NOTHING): a concurrent duplicate waits on it
 * until the first commits and then answers its stored response, so the write happens once; if
 * the first fails, nothing was stored and the duplicate runs itself. Same key, other request
 * (operation or arguments): TXN-422-001. Only successes are stored: a refused request may be
 * retried with the same key once the cause is fixed. Keys older than IDEMPOTENCY_KEY_RETENTION_MS
 * start afresh. `dbNull`: the client's Prisma.DbNull (a claimed row has no response yet).
 */
export async function runIdempotent<J, Tx extends IdempotentTx<J>, T>(db: IdempotentDb<J, Tx>, dbNull: J, request: IdempotentRequest<T>, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (request.key == null) return db.$transaction((tx) => work(tx), TRANSACTION_OPTIONS);
  const key = requireIdempotencyKey(request.key, ["idempotency_key"]);
  const requestHash = idempotencyRequestHash(request.operation, request.args);
  const where = { user_id_key: { user_id: request.user_id, key } };
  return db.$transaction(async (tx) => {
    for (;;) {
      const { count } = await tx.idempotencyKey.createMany({ data: [{ user_id: request.user_id, key, request_hash: requestHash }], skipDuplicates: true });
      if (count === 1) break;
      const row = await tx.idempotencyKey.findUnique({ where });
      const stored = answered(row, request, key, requestHash);
      if (stored) return stored.response;
      const data = { request_hash: requestHash, response: dbNull, created_at: new Date() };
      if (row && !expired(row)) {
        // defensively, a row never answered: the key starts afresh, the row locked by this update
        await tx.idempotencyKey.update({ where, data });
        break;
      }
      // expired: the key starts afresh, but only while it is still expired. A concurrent retry of
      // the same key that renewed it first (or a prune that deleted it) leaves nothing to update
      // here: claim again, then wait on its row and answer what it stored, so the work runs once.
      const renewed = await tx.idempotencyKey.updateMany({ where: { user_id: request.user_id, key, created_at: { lte: idempotencyKeyCutoff() } }, data });
      if (renewed.count === 1) break;
    }
    const result = await work(tx);
    await tx.idempotencyKey.update({ where, data: { response: request.snapshot(result) as J } });
    return result;
  }, TRANSACTION_OPTIONS);
}

/**
 * The stored response of an answered request, read before the checks that precede its work
 * (another service asked, the object looked up): a retry then answers what the first did even
 * where the first changed what those checks read (the object it deleted). TXN-422-001 for the same
 * key with another request; undefined when the key is new, expired or still running.
 */
export async function storedResponse<T>(db: IdempotentTx<never>, request: IdempotentRequest<T>): Promise<T | undefined> {
  if (request.key == null) return undefined;
  const key = requireIdempotencyKey(request.key, ["idempotency_key"]);
  const row = await db.idempotencyKey.findUnique({ where: { user_id_key: { user_id: request.user_id, key } } });
  return answered(row, request, key, idempotencyRequestHash(request.operation, request.args))?.response;
}
