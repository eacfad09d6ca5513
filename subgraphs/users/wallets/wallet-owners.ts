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
 * (owner) and by the signer addresses registered on it (agents), each saying whether it is proven
 * to be the user's. Several users may have registered one address (proven or not), hence a list. For the identity service's
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
  const safes = visible.filter((w) => w.type === "Safe");
  const agents = safes.length
    ? await db.wallet.findMany({
        where: { role: "signer", signer_of_wallet_id: { in: safes.map((w) => w.id) }, deleted_at: null },
        select: { address: true, signer_of_wallet_id: true, address_verified_at: true },
      })
    : [];
  // a Safe's owner signs as its user's primary EOA: proven when any of the user's EOA rows of that address is
  const provenOwners = safes.length
    ? await db.wallet.findMany({
        where: { OR: safes.map((w) => ({ user_id: w.user.id, address: w.user.primary_eoa_address })), type: "EOA", deleted_at: null, address_verified_at: { not: null } },
        select: { user_id: true },
      })
    : [];
  return visible.map((wallet) => {
    const signers: WalletSigner[] =
      wallet.type === "Safe"
        ? [{ address: getAddress(wallet.user.primary_eoa_address), role: "owner", verified: provenOwners.some((eoa) => eoa.user_id === wallet.user.id) }]
        : [{ address, role: "owner", verified: wallet.address_verified_at != null }];
    if (wallet.type === "Safe") {
      for (const agent of agents) {
        if (agent.signer_of_wallet_id !== wallet.id || !agent.address) continue;
        const agentAddress = getAddress(agent.address);
        if (!signers.some((s) => s.address === agentAddress)) signers.push({ address: agentAddress, role: "agent", verified: agent.address_verified_at != null });
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
