import type { Address, Hex } from "viem";
import { scopesNotPermitted, type PintSignerRole } from "../../../lib/auth/pint-scopes.ts";
import { AppError, appError } from "../../../lib/errors/app-error.ts";
import type { WalletOwner } from "../../../lib/wallet-owner.ts";
import { mandateDigest, parseExchangeRequest, type Mandate } from "./mandate.ts";
import { recoverMandateSigner, recoverSafeOwnerSigners, type SafeSignatureCheck } from "./signature.ts";

/**
 * POST /v0/idsvc/token/pint: a signed mandate in, a PINT JWT out. The checks run in this order,
 * each error reachable on its own (the first failing check answers):
 *
 *  1. rate limit, per API key (`pint_exchange` rule)           → 429 PINT-429-001 + Retry-After
 *  2. body and mandate fields                                   → 400 PINT-400-001
 *  3. `expiresAt` in the future                                 → 410 PINT-410-001
 *  4. `audience` registered by the key's organisation           → 400 PINT-400-002
 *  5. this very mandate (same digest) not revoked               → 409 PINT-409-002
 *  6. signature: ECDSA by the wallet (signer == wallet), or     → 401 PINT-401-001
 *     the signer's ECDSA inside a Safe signature, then the Safe → 401 PINT-401-002
 *     accepting it on chain (EIP-1271)                          → 424 PINT-424-001 (RPC failed)
 *  7. wallet owned by a user the key's organisation sees, the
 *     signer allowed for it and proven to be that user's
 *     address, and the scopes allowed for the signer's role
 *     (owner: any; agent: read scopes only)                     → 403 PINT-403-001
 *  8. the user's KYC approved                                   → 403 PINT-403-002
 *  9. (wallet, chain, nonce) unused: one insert, unique index   → 409 PINT-409-001
 * 10. the JWT is signed                                         → 201
 *
 * Cheap, offline checks come before the RPC call; nothing is written before step 9, so a
 * failing request consumes no nonce. Everything outside this function is a port, so the order is
 * unit-tested with fakes.
 */

export interface ExchangeCaller {
  key_id: string;
  org_id: string;
  env_id: string;
}

export interface NewMandate {
  digest: Hex;
  wallet: Address;
  chain_id: number;
  nonce: string;
  signer: Address;
  signer_role: PintSignerRole;
  audience: string;
  scopes: string[];
  expires_at: Date;
  user_id: string;
  organisation_id: string;
  environment_id: string;
  api_key_id: string;
}

export interface ExchangePorts<Row> {
  now(): Date;
  supportedChainIds: readonly number[];
  /** the deployment's EIP-712 domain salt (PINT_DOMAIN_SALT) */
  domainSalt: Hex;
  /** consumes one exchange from the key's budget */
  rateLimit(keyId: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  /** the organisation that registered this audience identifier, or null */
  audienceOrganisation(identifier: string): Promise<string | null>;
  /** a stored mandate with this EIP-712 digest */
  mandateByDigest(digest: Hex): Promise<{ revoked_at: Date | null } | null>;
  /** resolves when the Safe accepts the signature; throws PINT-401-002 / PINT-424-001 */
  verifySafeSignature(check: SafeSignatureCheck): Promise<void>;
  /** users owning the wallet that `orgId`'s keys see (users subgraph) */
  walletOwners(wallet: Address, chainId: number, orgId: string): Promise<WalletOwner[]>;
  /** stores the mandate; null when (wallet, chain_id, nonce) or its digest is taken */
  insertMandate(mandate: NewMandate): Promise<Row | null>;
  issueToken(row: Row): Promise<{ token: string; expires_at: Date }>;
}

export interface ExchangeResult<Row> {
  mandate: Row;
  token: string;
  expires_at: Date;
}

/** Step 6: which address signed, by the mandate's own claim, and proof that it did. */
async function verifySignature<Row>(chainId: number, mandate: Mandate, digest: Hex, signature: Hex, ports: ExchangePorts<Row>): Promise<void> {
  if (mandate.signer === mandate.wallet) {
    const recovered = await recoverMandateSigner(chainId, mandate, ports.domainSalt, signature);
    if (recovered !== mandate.wallet)
      throw appError("PINT-401-001", `The signature is not an EIP-712 (ECDSA) signature of this mandate by ${mandate.wallet}${recovered ? ` (it recovers to ${recovered})` : ""}.`);
    return;
  }
  const owners = await recoverSafeOwnerSigners(chainId, mandate.wallet, digest, signature);
  if (!owners.includes(mandate.signer))
    throw appError(
      "PINT-401-001",
      `signer ${mandate.signer} differs from wallet ${mandate.wallet}, so the wallet is taken for a Safe: the signature must carry ${mandate.signer}'s ECDSA signature over the Safe's SafeMessage of the mandate digest, and it does not.`,
    );
  await ports.verifySafeSignature({ chainId, safe: mandate.wallet, digest, signature });
}

/** Step 7: the one user and signer role the mandate speaks for. */
function authorise(mandate: Mandate, chainId: number, owners: WalletOwner[]): { owner: WalletOwner; role: PintSignerRole } {
  if (owners.length === 0)
    throw appError("PINT-403-001", `Wallet ${mandate.wallet} on chain ${chainId} is not a wallet of a platform user this organisation's keys can see.`);
  const candidates = owners.flatMap((owner) => {
    const signer = owner.signers.find((s) => s.address.toLowerCase() === mandate.signer.toLowerCase());
    return signer ? [{ owner, role: (signer.role === "owner" ? "owner" : "agent") as PintSignerRole, verified: signer.verified }] : [];
  });
  if (candidates.length === 0)
    throw appError("PINT-403-001", `${mandate.signer} may not sign for wallet ${mandate.wallet}: it is neither the wallet's key, its user's primary EOA, nor a signer registered on it.`);
  // anyone may register any address unproven: only a user who proved it speaks for it, so a squatter neither gets nor blocks the owner's mandates
  const matches = candidates.filter((m) => m.verified);
  if (matches.length === 0)
    throw appError(
      "PINT-403-001",
      `${mandate.signer} is not proven to be its user's address, so it signs for no one yet: the user proves it with POST {base_url}/v0/wallets/{wallet_id}/address-proof (see address_verified on the wallet).`,
    );
  const users = new Set(matches.map((m) => m.owner.user_id));
  if (users.size > 1) throw appError("PINT-403-001", `Wallet ${mandate.wallet} on chain ${chainId} belongs to several users; a mandate cannot say which.`);
  const match = matches.find((m) => m.role === "owner") ?? matches[0]!;
  const refused = scopesNotPermitted(match.role, mandate.scopes);
  if (refused.length > 0)
    throw appError("PINT-403-001", `${mandate.signer} is an agent signer of the wallet and may grant read scopes only; not permitted: ${refused.join(", ")}.`);
  return match;
}

export async function exchangePint<Row>(input: unknown, caller: ExchangeCaller, ports: ExchangePorts<Row>): Promise<ExchangeResult<Row>> {
  // 1
  const budget = await ports.rateLimit(caller.key_id);
  if (!budget.allowed) throw new AppError("PINT-429-001", { retryAfter: Math.max(1, budget.retryAfterSeconds) });
  // 2
  const now = ports.now();
  const { chain_id: chainId, mandate, signature } = parseExchangeRequest(input, { supportedChainIds: ports.supportedChainIds, now });
  // 3
  if (mandate.expiresAt * 1000n <= BigInt(now.getTime()))
    throw appError("PINT-410-001", `The mandate expired at ${new Date(Number(mandate.expiresAt) * 1000).toISOString()}; sign a new one with a future expiresAt.`);
  // 4
  if ((await ports.audienceOrganisation(mandate.audience)) !== caller.org_id)
    throw appError("PINT-400-002", `"${mandate.audience}" is not a third-party identifier registered by this organisation (POST /v0/organisation/{org_id}/audiences).`);
  // 5
  const digest = mandateDigest(chainId, mandate, ports.domainSalt);
  if ((await ports.mandateByDigest(digest))?.revoked_at) throw appError("PINT-409-002");
  // 6
  await verifySignature(chainId, mandate, digest, signature, ports);
  // 7
  const { owner, role } = authorise(mandate, chainId, await ports.walletOwners(mandate.wallet, chainId, caller.org_id));
  // 8
  if (owner.status !== "approved") throw appError("PINT-403-002", `The wallet's user has not completed KYC (account status ${owner.status}).`);
  // 9
  const row = await ports.insertMandate({
    digest,
    wallet: mandate.wallet,
    chain_id: chainId,
    nonce: mandate.nonce.toString(),
    signer: mandate.signer,
    signer_role: role,
    audience: mandate.audience,
    scopes: [...mandate.scopes],
    expires_at: new Date(Number(mandate.expiresAt) * 1000),
    user_id: owner.user_id,
    organisation_id: caller.org_id,
    environment_id: caller.env_id,
    api_key_id: caller.key_id,
  });
  if (row === null) throw appError("PINT-409-001", `Nonce ${mandate.nonce} was already used for wallet ${mandate.wallet} on chain ${chainId}; increment it and sign again.`);
  // 10
  const { token, expires_at } = await ports.issueToken(row);
  return { mandate: row, token, expires_at };
}
