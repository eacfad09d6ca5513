import type { UsersTx } from "../db.ts";

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
