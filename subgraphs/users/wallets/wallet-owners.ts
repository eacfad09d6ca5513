import { getAddress, isAddress } from "viem";
import type { WalletOwner, WalletSigner } from "../../../lib/wallet-owner.ts";
import type { UsersDb } from "../db.ts";
import { visibleToOrganisation } from "../user/lookup-access.ts";

export interface FindWalletOwnersOptions {
  address: string;
  chain_id: number;
  /** only users this organisation's keys see (lookup-access.ts); undefined: every user */
  org_id?: string | null;
  defaultOrganisationId?: string;
}

/**
 * The users whose live wallet (role `wallet`, EOA or Safe) is `address` on `chain_id`, with who
 * may sign for it: an EOA signs for itself; a Safe is signed for by the user's primary EOA
 * (owner) and by the signer addresses registered on it (agents). Several users may have
 * registered one address (in different environments), hence a list. For the identity service's
 * PINT exchange and mandate revocation (`_wallet_owners`).
 */
export async function findWalletOwners(db: UsersDb, options: FindWalletOwnersOptions): Promise<WalletOwner[]> {
  if (!isAddress(options.address, { strict: false })) return [];
  const address = getAddress(options.address);
  const wallets = await db.wallet.findMany({
    where: { address, chain_id: options.chain_id, role: "wallet", deleted_at: null },
    include: { user: { select: { id: true, environment_id: true, status: true, primary_eoa_address: true, created_at: true } } },
    orderBy: { id: "asc" },
  });
  const visible = wallets.filter((w) => !options.org_id || visibleToOrganisation(w.user.environment_id, options.org_id, options.defaultOrganisationId));
  const safeIds = visible.filter((w) => w.type === "Safe").map((w) => w.id);
  const agents = safeIds.length
    ? await db.wallet.findMany({ where: { role: "signer", signer_of_wallet_id: { in: safeIds }, deleted_at: null }, select: { address: true, signer_of_wallet_id: true } })
    : [];
  return visible.map((wallet) => {
    const signers: WalletSigner[] =
      wallet.type === "Safe"
        ? [{ address: getAddress(wallet.user.primary_eoa_address), role: "owner" }]
        : [{ address, role: "owner" }];
    if (wallet.type === "Safe") {
      for (const agent of agents) {
        if (agent.signer_of_wallet_id !== wallet.id || !agent.address) continue;
        const agentAddress = getAddress(agent.address);
        if (!signers.some((s) => s.address === agentAddress)) signers.push({ address: agentAddress, role: "agent" });
      }
    }
    return {
      user_id: wallet.user.id,
      environment_id: wallet.user.environment_id,
      status: wallet.user.status,
      wallet_id: wallet.id,
      wallet_type: wallet.type === "Safe" ? "Safe" : "EOA",
      signers,
    };
  });
}
