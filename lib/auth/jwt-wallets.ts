import { getAddress, isAddress, isAddressEqual, type Address } from "viem";
import type { JWTPayload } from "jose";

/** A token listing more wallets than this is unusual; the principal stays small (it travels in a header). */
const MAX_VOUCHED_ADDRESSES = 20;

/** The AUTH_PROVIDERS name of sign-in with Ethereum: its tokens' `sub` is the signed-in address. */
export const SIWE_PROVIDER = "siwe";

function walletEntries(value: unknown): unknown[] {
  // some providers put the linked accounts in the identity token as a JSON string
  if (typeof value === "string") {
    try {
      return walletEntries(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value : [];
}

function entryAddress(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { type, format, address } = entry as Record<string, unknown>;
  // `linked_accounts` entries carry `type: "wallet"`; `verified_credentials` entries `format: "blockchain"`
  if (type !== "wallet" && format !== "blockchain") return undefined;
  return typeof address === "string" && isAddress(address, { strict: false }) ? getAddress(address) : undefined;
}

/**
 * The EVM addresses a verified JWT vouches the subject controls: the subject itself for a SIWE
 * session (it signed in with that address), and the wallet entries of an identity token's
 * `linked_accounts` (or `verified_credentials`). Checksummed, at most MAX_VOUCHED_ADDRESSES. A
 * provider vouches only for users of the environment that trusts it.
 */
export function walletAddressesVouchedBy(jwt: { provider: string; subject: string; claims: JWTPayload }): string[] {
  const addresses = new Set<string>();
  if (jwt.provider === SIWE_PROVIDER && isAddress(jwt.subject, { strict: false })) addresses.add(getAddress(jwt.subject));
  for (const entry of [...walletEntries(jwt.claims.linked_accounts), ...walletEntries(jwt.claims.verified_credentials)]) {
    const address = entryAddress(entry);
    if (address) addresses.add(address);
    if (addresses.size >= MAX_VOUCHED_ADDRESSES) break;
  }
  return [...addresses];
}

/** Whether `address` is among the wallets a verified JWT vouches for (walletAddressesVouchedBy): proof of control on its own. */
export function jwtVouchesFor(vouched: readonly string[] | undefined, address: Address): boolean {
  return vouched?.some((candidate) => isAddressEqual(candidate as Address, address)) ?? false;
}
