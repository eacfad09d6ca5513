import { concat, encodeAbiParameters, keccak256, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { scopesNotPermitted } from "../../lib/auth/pint-scopes.ts";
import { AppError, appError } from "../../lib/errors/app-error.ts";
import { exchangePint, type ExchangePorts, type NewMandate } from "../../subgraphs/identity/pints/exchange.ts";
import type { WalletOwner } from "../../lib/wallet-owner.ts";
import { mandateDigest, parseExchangeRequest, PINT_EIP712_TYPES, safeMessageHash, type Mandate } from "../../subgraphs/identity/pints/mandate.ts";
import { recoverMandateSigner, recoverSafeOwnerSigners } from "../../subgraphs/identity/pints/signature.ts";

const CHAIN = 8453;
const NOW = new Date("2026-11-21T12:00:00Z");
const NOW_S = BigInt(NOW.getTime() / 1000);
const AUDIENCE = "com.example.app";
const ORG = "org_a";
const SALT = keccak256(toHex("https://identity.one.test"));
const OTHER_SALT = keccak256(toHex("https://identity.two.test"));

function sample(account: PrivateKeyAccount, overrides: Partial<Mandate> = {}): Mandate {
  return { wallet: account.address, signer: account.address, audience: AUDIENCE, scopes: ["profile.read", "kyc.read"], nonce: 7n, expiresAt: NOW_S + 3600n, ...overrides };
}

function sign(account: PrivateKeyAccount, chainId: number, mandate: Mandate, salt: Hex = SALT): Promise<Hex> {
  return account.signTypedData({ domain: { name: "PINT", version: "1", chainId, salt }, types: PINT_EIP712_TYPES, primaryType: "Mandate", message: mandate });
}

const word = (text: string) => keccak256(toHex(text));

describe("EIP-712 hashing of a mandate", () => {
  it("is keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(Mandate)) with the documented type string", () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const m = sample(account, { nonce: 2n ** 200n + 1n, scopes: ["profile.read", "identity.read", "kyc.read"] });
    const domainSeparator = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "bytes32" }],
        [word("EIP712Domain(string name,string version,uint256 chainId,bytes32 salt)"), word("PINT"), word("1"), BigInt(CHAIN), SALT],
      ),
    );
    const typeHash = word("Mandate(address wallet,address signer,string audience,string[] scopes,uint256 nonce,uint64 expiresAt)");
    const structHash = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint64" }],
        [typeHash, m.wallet, m.signer, word(m.audience), keccak256(concat(m.scopes.map(word))), m.nonce, m.expiresAt],
      ),
    );
    expect(mandateDigest(CHAIN, m, SALT)).toBe(keccak256(concat(["0x1901", domainSeparator, structHash])));
    // the chain and the deployment are part of the domain; every field is part of the digest
    expect(mandateDigest(CHAIN + 1, m, SALT)).not.toBe(mandateDigest(CHAIN, m, SALT));
    expect(mandateDigest(CHAIN, m, OTHER_SALT)).not.toBe(mandateDigest(CHAIN, m, SALT));
    expect(mandateDigest(CHAIN, { ...m, scopes: ["profile.read", "kyc.read", "identity.read"] }, SALT)).not.toBe(mandateDigest(CHAIN, m, SALT));
  });

  it("recovers the signer of viem's signTypedData, and nobody for a tampered mandate", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const m = sample(account);
    const signature = await sign(account, CHAIN, m);
    expect(await recoverMandateSigner(CHAIN, m, SALT, signature)).toBe(account.address);
    expect(await recoverMandateSigner(CHAIN, { ...m, nonce: 8n }, SALT, signature)).not.toBe(account.address);
    expect(await recoverMandateSigner(CHAIN, m, OTHER_SALT, signature)).not.toBe(account.address);
    expect(await recoverMandateSigner(CHAIN, m, SALT, `0x${"00".repeat(65)}`)).toBeNull();
    expect(await recoverMandateSigner(CHAIN, m, SALT, `${signature}00`)).toBeNull();
  });

  it("gives a Safe's SafeMessage hash: EIP-712 SafeMessage(bytes message) of the digest in the domain {chainId, verifyingContract}", () => {
    const safe: Address = "0x52908400098527886E0F7030069857D2E4169EE7";
    const digest = keccak256(toHex("a mandate"));
    const domainSeparator = keccak256(
      encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "address" }], [word("EIP712Domain(uint256 chainId,address verifyingContract)"), BigInt(CHAIN), safe]),
    );
    const structHash = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [word("SafeMessage(bytes message)"), keccak256(digest)]));
    expect(safeMessageHash(CHAIN, safe, digest)).toBe(keccak256(concat(["0x1901", domainSeparator, structHash])));
  });

  it("reads owner signatures out of a Safe signature: EIP-712 (v 27/28) and eth_sign (v 31/32), concatenated", async () => {
    const [a, b] = [0, 1].map(() => privateKeyToAccount(generatePrivateKey()));
    const safe: Address = "0x52908400098527886E0F7030069857D2E4169EE7";
    const digest = keccak256(toHex("a mandate"));
    const hash = safeMessageHash(CHAIN, safe, digest);
    const typed = await a!.signTypedData({ domain: { chainId: CHAIN, verifyingContract: safe }, types: { SafeMessage: [{ name: "message", type: "bytes" }] }, primaryType: "SafeMessage", message: { message: digest } });
    const ethSign = await b!.signMessage({ message: { raw: hash } });
    const v = parseInt(ethSign.slice(-2), 16);
    const ethSignSafe = `${ethSign.slice(0, -2)}${(v + 4).toString(16)}` as Hex;
    expect(await recoverSafeOwnerSigners(CHAIN, safe, digest, concat([typed, ethSignSafe]))).toEqual([a!.address, b!.address]);
    // signed for another Safe or chain: somebody else
    expect(await recoverSafeOwnerSigners(CHAIN + 1, safe, digest, typed)).not.toContain(a!.address);
  });
});

describe("parseExchangeRequest", () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const good = () => ({
    chain_id: CHAIN,
    mandate: { wallet: account.address.toLowerCase(), signer: account.address, audience: AUDIENCE, scopes: ["profile.read"], nonce: "7", expiresAt: Number(NOW_S) + 60 },
    signature: `0x${"ab".repeat(65)}`,
  });
  const parse = (input: unknown) => parseExchangeRequest(input, { supportedChainIds: [1, CHAIN], now: NOW });
  const failure = (input: unknown) => {
    try {
      parse(input);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("PINT-400-001");
      return (error as AppError).detail;
    }
    throw new Error("expected PINT-400-001");
  };

  it("normalises addresses, nonce and expiry, so equal mandates hash equally however written", () => {
    const parsed = parse(good());
    expect(parsed.mandate).toEqual({ wallet: account.address, signer: account.address, audience: AUDIENCE, scopes: ["profile.read"], nonce: 7n, expiresAt: NOW_S + 60n });
    const asNumbers = parse({ ...good(), mandate: { ...good().mandate, nonce: 7, expiresAt: String(Number(NOW_S) + 60) } });
    expect(mandateDigest(CHAIN, asNumbers.mandate, SALT)).toBe(mandateDigest(CHAIN, parsed.mandate, SALT));
  });

  it("names every problem at once", () => {
    const detail = failure({ chain_id: 5, mandate: { wallet: "0x123", audience: "a", scopes: ["nope"], nonce: 1.5, expiresAt: -1, extra: 1 }, signature: "0x00" });
    for (const expected of ["chain_id: 5 is not a supported chain", "signature: expected", "mandate.extra: unknown field", "mandate.wallet:", "mandate.signer: missing", "mandate.audience:", 'unknown scopes "nope"', "mandate.nonce:", "mandate.expiresAt:"])
      expect(detail).toContain(expected);
  });

  it.each([
    ["not an object", "mandate"],
    ["a uint256 overflow", { ...good(), mandate: { ...good().mandate, nonce: (2n ** 256n).toString() } }],
    ["a bad EIP-55 checksum", { ...good(), mandate: { ...good().mandate, wallet: "0x52908400098527886E0F7030069857D2E4169Ee7" } }],
    ["expiresAt over 90 days ahead", { ...good(), mandate: { ...good().mandate, expiresAt: Number(NOW_S) + 91 * 86400 } }],
    ["an odd-length signature", { ...good(), signature: `0x${"a".repeat(131)}` }],
  ])("refuses %s", (_name, input) => {
    failure(input);
  });
});

describe("scopesNotPermitted", () => {
  it("lets owners grant anything and agents read scopes only", () => {
    expect(scopesNotPermitted("owner", ["profile.read", "payments.write"])).toEqual([]);
    expect(scopesNotPermitted("agent", ["profile.read", "kyc.read", "balances.read"])).toEqual([]);
    expect(scopesNotPermitted("agent", ["profile.read", "payments.write"])).toEqual(["payments.write"]);
  });
});

/** Every check of the exchange made to fail, or pass, on demand; the calls made are recorded. */
interface Failures {
  rateLimited?: boolean;
  malformed?: boolean;
  expired?: boolean;
  audience?: boolean;
  revoked?: boolean;
  signature?: boolean;
  safe?: "invalid" | "unavailable";
  wallet?: boolean;
  /** the signer's address registered by its user but never proven, and registered by a second, proven user too */
  unproven?: boolean;
  squatted?: boolean;
  scopes?: boolean;
  kyc?: boolean;
  nonce?: boolean;
}

async function attempt(failures: Failures, options: { safeWallet?: boolean } = {}) {
  const owner = privateKeyToAccount(generatePrivateKey());
  const agent = privateKeyToAccount(generatePrivateKey());
  const safe: Address = "0x52908400098527886E0F7030069857D2E4169EE7";
  const signer = options.safeWallet ? agent : owner;
  const m = sample(signer, {
    ...(options.safeWallet && { wallet: safe }),
    ...(failures.expired && { expiresAt: NOW_S - 1n }),
    ...(failures.scopes && { scopes: ["profile.read", "payments.write"] }),
  });
  const digest = mandateDigest(CHAIN, m, SALT);
  const stranger = privateKeyToAccount(generatePrivateKey());
  const by = failures.signature ? stranger : signer;
  const signature = options.safeWallet
    ? await by.signTypedData({ domain: { chainId: CHAIN, verifyingContract: safe }, types: { SafeMessage: [{ name: "message", type: "bytes" }] }, primaryType: "SafeMessage", message: { message: digest } })
    : await sign(by, CHAIN, m);
  const input = {
    chain_id: CHAIN,
    mandate: { ...m, nonce: m.nonce.toString(), expiresAt: Number(m.expiresAt), ...(failures.malformed && { scopes: "profile.read" }) },
    signature,
  };
  const calls: string[] = [];
  const walletOwner: WalletOwner = {
    user_id: "usr_1",
    environment_id: "default",
    status: failures.kyc ? "pending" : "approved",
    wallet_id: 1,
    wallet_type: options.safeWallet ? "Safe" : "EOA",
    signers: options.safeWallet
      ? [
          { address: owner.address, role: "owner", verified: !failures.unproven },
          { address: agent.address, role: "agent", verified: !failures.unproven },
        ]
      : [{ address: owner.address, role: "owner", verified: !failures.unproven }],
  };
  // a squatter: another user who registered the same address without proving it
  const squatter: WalletOwner = { ...walletOwner, user_id: "usr_squatter", wallet_id: 2, signers: walletOwner.signers.map((signer) => ({ ...signer, verified: false })) };
  const ports: ExchangePorts<NewMandate & { id: string }> = {
    now: () => NOW,
    supportedChainIds: [CHAIN],
    domainSalt: SALT,
    rateLimit: async () => (calls.push("rateLimit"), failures.rateLimited ? { allowed: false, retryAfterSeconds: 42 } : { allowed: true, retryAfterSeconds: 0 }),
    audienceOrganisation: async () => (calls.push("audience"), failures.audience ? "org_other" : ORG),
    mandateByDigest: async () => (calls.push("revoked"), failures.revoked ? { revoked_at: NOW } : null),
    verifySafeSignature: async () => {
      calls.push("eip1271");
      if (failures.safe === "invalid") throw appError("PINT-401-002");
      if (failures.safe === "unavailable") throw appError("PINT-424-001");
    },
    walletOwners: async () => (calls.push("walletOwners"), failures.wallet ? [] : failures.squatted ? [squatter, walletOwner] : [walletOwner]),
    insertMandate: async (row) => (calls.push("insert"), failures.nonce ? null : { ...row, id: "pint_1" }),
    issueToken: async () => (calls.push("token"), { token: "jwt", expires_at: NOW }),
  };
  try {
    const result = await exchangePint(input, { key_id: "key_1", org_id: ORG, env_id: "env_1" }, ports);
    return { code: "201", calls, result };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, calls, retryAfter: error.retryAfter };
  }
}

describe("exchangePint check order", () => {
  const all: Failures = { rateLimited: true, malformed: true, expired: true, audience: true, revoked: true, signature: true, wallet: true, kyc: true, nonce: true };

  it("answers the first failing check; fixing each in turn reaches the next, then 201", async () => {
    const steps: [keyof Failures, string][] = [
      ["rateLimited", "PINT-429-001"],
      ["malformed", "PINT-400-001"],
      ["expired", "PINT-410-001"],
      ["audience", "PINT-400-002"],
      ["revoked", "PINT-409-002"],
      ["signature", "PINT-401-001"],
      ["wallet", "PINT-403-001"],
      ["kyc", "PINT-403-002"],
      ["nonce", "PINT-409-001"],
    ];
    const failures: Failures = { ...all };
    for (const [check, code] of steps) {
      expect((await attempt(failures)).code, `with ${check} failing first`).toBe(code);
      delete failures[check];
    }
    const success = await attempt(failures);
    expect(success.code).toBe("201");
    expect(success.calls).toEqual(["rateLimit", "audience", "revoked", "walletOwners", "insert", "token"]);
    expect(success.result?.mandate).toMatchObject({ signer_role: "owner", user_id: "usr_1", organisation_id: ORG, nonce: "7" });
  });

  it("speaks only for a user who proved the signer's address: 403 PINT-403-001 naming the proof, and a squatter blocks no one", async () => {
    for (const safeWallet of [false, true]) {
      const unproven = await attempt({ unproven: true }, { safeWallet });
      expect(unproven.code).toBe("PINT-403-001");
      expect(unproven.calls).not.toContain("insert");
      const squatted = await attempt({ squatted: true }, { safeWallet });
      expect(squatted.code).toBe("201");
      expect(squatted.result?.mandate.user_id).toBe("usr_1");
    }
  });

  it("gives Retry-After with PINT-429-001 and touches nothing else", async () => {
    const limited = await attempt({ rateLimited: true });
    expect(limited).toMatchObject({ code: "PINT-429-001", retryAfter: 42, calls: ["rateLimit"] });
  });

  it("writes nothing and asks no one else when a check before the insert fails", async () => {
    expect((await attempt({ signature: true })).calls).toEqual(["rateLimit", "audience", "revoked"]);
    expect((await attempt({ kyc: true })).calls).not.toContain("insert");
  });

  it("puts 403 PINT-403-001 for an agent's write scope after the signature checks", async () => {
    expect((await attempt({ scopes: true, signature: true }, { safeWallet: true })).code).toBe("PINT-401-001");
    expect((await attempt({ scopes: true, safe: "invalid" }, { safeWallet: true })).code).toBe("PINT-401-002");
    expect((await attempt({ scopes: true }, { safeWallet: true })).code).toBe("PINT-403-001");
    const read = await attempt({}, { safeWallet: true });
    expect(read.code).toBe("201");
    expect(read.result?.mandate.signer_role).toBe("agent");
  });

  it("asks the chain only for Safe wallets, after the offline ECDSA check, and stops at 424 PINT-424-001", async () => {
    expect((await attempt({})).calls).not.toContain("eip1271");
    const unavailable = await attempt({ safe: "unavailable", kyc: true }, { safeWallet: true });
    expect(unavailable.code).toBe("PINT-424-001");
    expect(unavailable.calls).toEqual(["rateLimit", "audience", "revoked", "eip1271"]);
  });
});
