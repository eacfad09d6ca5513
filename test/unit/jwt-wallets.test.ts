import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { walletAddressesVouchedBy } from "../../lib/auth/jwt-wallets.ts";

const A = "0x52908400098527886e0f7030069857d2e4169ee7";
const B = "0xde709f2102306220921060314715629080e2fb77";

describe("walletAddressesVouchedBy", () => {
  it("a SIWE session vouches for its subject; another provider's subject vouches for nothing", () => {
    expect(walletAddressesVouchedBy({ provider: "siwe", subject: getAddress(A), claims: {} })).toEqual([getAddress(A)]);
    expect(walletAddressesVouchedBy({ provider: "provider_a", subject: A, claims: {} })).toEqual([]);
  });

  it("reads wallet entries of linked_accounts (array or JSON string) and verified_credentials, checksummed, nothing else", () => {
    const claims = {
      linked_accounts: [{ type: "email", address: "x@example.com" }, { type: "wallet", address: A }, { type: "wallet", address: "0x123" }, { type: "phone", address: B }],
      verified_credentials: [{ format: "blockchain", address: B }, { format: "email", address: A }],
    };
    expect(walletAddressesVouchedBy({ provider: "provider_a", subject: "u", claims })).toEqual([getAddress(A), getAddress(B)]);
    expect(walletAddressesVouchedBy({ provider: "provider_b", subject: "u", claims: { linked_accounts: JSON.stringify([{ type: "wallet", address: B }]) } })).toEqual([getAddress(B)]);
    expect(walletAddressesVouchedBy({ provider: "provider_b", subject: "u", claims: { linked_accounts: "{not json" } })).toEqual([]);
    expect(walletAddressesVouchedBy({ provider: "provider_b", subject: "u", claims: { linked_accounts: { type: "wallet", address: A } } })).toEqual([]);
  });

  it("keeps at most 20 addresses", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ type: "wallet", address: `0x${(i + 1).toString(16).padStart(40, "0")}` }));
    expect(walletAddressesVouchedBy({ provider: "provider_a", subject: "u", claims: { linked_accounts: many } })).toHaveLength(20);
  });
});
