import { queryRows } from "../../../lib/db/direct-query.ts";
import { PREPARED } from "../../../lib/db/prepared-statements.ts";
import type { UsersTx } from "../db.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { User, Wallet } from "../generated/prisma/client.ts";

/** The wallets shown in lists and `expand=wallets`: live EOA and Safe wallets, never signer-only rows. */
export const LISTED_WALLETS = { deleted_at: null, role: "wallet" } as const;

/**
 * The user as the API shows it: `safe_creation_status` is that of the primary Safe, a second
 * statement, left out (undefined) for a caller whose operation does not select it.
 */
export async function findUser(db: UsersTx, userId: string, options: { safeCreationStatus?: boolean } = {}) {
  if (options.safeCreationStatus === false) {
    const user = await db.user.findUnique({ where: { id: userId } });
    return user && { ...user, safe_creation_status: undefined };
  }
  const user = await db.user.findUnique({
    where: { id: userId },
    include: { wallets: { where: { ...LISTED_WALLETS, type: "Safe", is_primary: true }, select: { safe_creation_status: true }, take: 1 } },
  });
  if (!user) return null;
  const { wallets, ...rest } = user;
  return { ...rest, safe_creation_status: wallets[0]?.safe_creation_status ?? null };
}

/** Where `findUserWithWallets` leaves a user's listed wallets for User.wallets. */
export const LOADED_WALLETS = Symbol("listed wallets");

const userColumns = Object.values(Prisma.UserScalarFieldEnum);
const walletColumns = Object.values(Prisma.WalletScalarFieldEnum);
// Prisma's `include` is two statements (relationJoins is off); this is one: a row per listed
// wallet, or one row without a wallet. Every column of both models, so the rows are the models'.
// It runs on the database directly (queryRows), as a prepared statement: its text never changes.
// The one array column reads as JSON (queryRows takes no array type), the same list of strings.
const userColumnsSql = userColumns.map((c) => (c === "onboarding_skipped_steps" ? `to_json(u."${c}") AS "${c}"` : `u."${c}"`));
const userWithWalletsSql = [
  `${PREPARED}SELECT ${userColumnsSql.join(", ")}, ${walletColumns.map((c) => `w."${c}" AS "wallet.${c}"`).join(", ")}
  FROM "users"."users" u
  LEFT JOIN "users"."wallets" w ON w."user_id" = u."id" AND w."deleted_at" IS NULL AND w."role" = '${LISTED_WALLETS.role}'
  WHERE u."id" = `,
  `
  ORDER BY w."id"`,
];

// the rows' keys, made once: `prefix + column` per row and column made a new string to hash on every read
const walletKeys = walletColumns.map((c) => `wallet.${c}`);

function columnsOf(row: Record<string, unknown>, columns: readonly string[], keys: readonly string[]): Record<string, unknown> {
  const model: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) model[columns[i]!] = row[keys[i]!];
  return model;
}

/**
 * `findUser` and the user's listed wallets (`LISTED_WALLETS`, by id), in one statement, for a
 * `me` that selects `wallets`: User.wallets answers them from `LOADED_WALLETS`. The primary
 * Safe is among the listed wallets, so `safe_creation_status` costs nothing more.
 */
export async function findUserWithWallets(db: UsersTx, userId: string, options: { safeCreationStatus: boolean }) {
  const rows = await queryRows<Record<string, unknown>>(db, new Prisma.Sql(userWithWalletsSql, [userId]));
  if (rows.length === 0) return null;
  const wallets = rows.filter((row) => row["wallet.id"] !== null).map((row) => columnsOf(row, walletColumns, walletKeys) as Wallet);
  const primarySafe = wallets.find((wallet) => wallet.type === "Safe" && wallet.is_primary);
  // the answer made once, its keys in the order `{ ...user, safe_creation_status, [LOADED_WALLETS] }` gives them
  const user = columnsOf(rows[0]!, userColumns, userColumns) as User & { safe_creation_status: string | null | undefined; [LOADED_WALLETS]: Wallet[] };
  user.safe_creation_status = options.safeCreationStatus ? (primarySafe?.safe_creation_status ?? null) : undefined;
  user[LOADED_WALLETS] = wallets;
  return user;
}

const listedWalletsSql = [
  `${PREPARED}SELECT ${walletColumns.map((c) => `"${c}"`).join(", ")}
  FROM "users"."wallets"
  WHERE "user_id" = `,
  ` AND "deleted_at" IS NULL AND "role" = '${LISTED_WALLETS.role}'
    AND (`,
  `::int[] IS NULL OR "id" = ANY(`,
  `::int[]))
    AND (`,
  `::int IS NULL OR "chain_id" = `,
  `::int)
    AND (`,
  `::text IS NULL OR "type" = `,
  `::text)
  ORDER BY "id"`,
];

/**
 * The user's listed wallets (`LISTED_WALLETS`, by id), as `db.wallet.findMany` reads them, in one
 * prepared statement run on the database directly (queryRows): `GET /v0/wallets` and the
 * `wallets` query. Unset filters are nulls in the same text, so one statement serves them all.
 * `walletIds`: an agent's wallet scope; `type`: "EOA" or "Safe".
 */
export async function listWallets(db: UsersTx, userId: string, filters: { walletIds?: readonly number[]; chainId?: number | null; type?: "EOA" | "Safe" } = {}): Promise<Wallet[]> {
  const values = [userId, filters.walletIds ? [...filters.walletIds] : null, filters.walletIds ? [...filters.walletIds] : null, filters.chainId ?? null, filters.chainId ?? null, filters.type ?? null, filters.type ?? null];
  return queryRows<Wallet>(db, new Prisma.Sql(listedWalletsSql, values));
}
