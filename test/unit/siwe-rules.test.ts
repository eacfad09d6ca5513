import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import {
  checkSiweMessage,
  generateSiweNonce,
  isWellFormedNonce,
  nonceProblem,
  sessionLifetimeSeconds,
  SIWE_CLOCK_SKEW_MS,
  SIWE_NONCE_TTL_MS,
  SIWE_SESSION_TTL_SECONDS,
} from "../../subgraphs/users/siwe/siwe-rules.ts";
import { isRpcUnavailable } from "../../lib/chain/rpc-errors.ts";
import { verifySiweSignature } from "../../subgraphs/users/siwe/siwe-signature.ts";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const RULES = { domain: "api.example.com", scheme: "https", supportedChainIds: [1, 8453], now: NOW };

function message(overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}): string {
  return createSiweMessage({
    domain: "api.example.com",
    address: ADDRESS,
    uri: "https://api.example.com",
    version: "1",
    chainId: 8453,
    nonce: "0123456789abcdef0123456789abcdef",
    issuedAt: NOW,
    statement: "Sign in.",
    ...overrides,
  });
}

function rejection(fn: () => unknown): { code: string; detail: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { code: (error as AppError).code, detail: (error as AppError).detail };
  }
  throw new Error("expected a rejection");
}

describe("SIWE nonces", () => {
  it("are 128 random bits as 32 hex characters: alphanumeric, at least 8 (EIP-4361)", () => {
    const nonces = new Set(Array.from({ length: 1000 }, generateSiweNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(isWellFormedNonce(nonce)).toBe(true);
    }
  });

  it("EIP-4361 nonce syntax: 8 or more letters and digits", () => {
    expect(isWellFormedNonce("abcd1234")).toBe(true);
    expect(isWellFormedNonce("abc1234")).toBe(false);
    expect(isWellFormedNonce("abcd-1234")).toBe(false);
    expect(isWellFormedNonce("")).toBe(false);
  });

  it("are usable until their expiry, once", () => {
    expect(SIWE_NONCE_TTL_MS).toBe(10 * 60_000);
    const issued = { expires_at: at(SIWE_NONCE_TTL_MS), used_at: null };
    expect(nonceProblem(issued, NOW)).toBeNull();
    expect(nonceProblem(issued, at(SIWE_NONCE_TTL_MS - 1))).toBeNull();
    expect(nonceProblem(issued, at(SIWE_NONCE_TTL_MS))).toBe("expired");
    expect(nonceProblem({ ...issued, used_at: at(1000) }, at(2000))).toBe("used");
    expect(nonceProblem({ ...issued, used_at: at(1000) }, at(SIWE_NONCE_TTL_MS + 1))).toBe("used");
    expect(nonceProblem(null, NOW)).toBe("unknown");
  });
});

describe("SIWE message rules", () => {
  it("accepts a well-formed message for our domain and returns its fields, address checksummed", () => {
    const accepted = checkSiweMessage(message({ address: ADDRESS.toLowerCase() as `0x${string}` }), RULES);
    expect(accepted).toEqual({
      address: ADDRESS,
      chainId: 8453,
      nonce: "0123456789abcdef0123456789abcdef",
      domain: "api.example.com",
      uri: "https://api.example.com",
      issuedAt: NOW,
    });
  });

  it("requires exactly our domain (host and port)", () => {
    expect(rejection(() => checkSiweMessage(message({ domain: "evil.example.com" }), RULES))).toMatchObject({ code: "SIW-401-001", detail: expect.stringContaining('"evil.example.com"') });
    const local = { ...RULES, domain: "localhost:8080", scheme: "http" };
    expect(checkSiweMessage(message({ domain: "localhost:8080" }), local).domain).toBe("localhost:8080");
    expect(rejection(() => checkSiweMessage(message({ domain: "localhost:8081" }), local)).code).toBe("SIW-401-001");
    expect(rejection(() => checkSiweMessage(message({ domain: "localhost" }), local)).code).toBe("SIW-401-001");
  });

  it("accepts a message without scheme, and one with ours; refuses another scheme", () => {
    expect(checkSiweMessage(message({ scheme: "https" }), RULES).domain).toBe("api.example.com");
    expect(rejection(() => checkSiweMessage(message({ scheme: "http" }), RULES)).detail).toMatch(/scheme "http"/);
  });

  it("refuses version other than 1, a short nonce, a bad checksum, an unsupported chain", () => {
    expect(rejection(() => checkSiweMessage(message().replace("Version: 1", "Version: 2"), RULES)).detail).toMatch(/Version/);
    expect(rejection(() => checkSiweMessage(message().replace("Nonce: 0123456789abcdef0123456789abcdef", "Nonce: abc123"), RULES)).detail).toMatch(/nonce/);
    const badChecksum = message().replace(ADDRESS, ADDRESS.replace("E0F", "e0F"));
    expect(rejection(() => checkSiweMessage(badChecksum, RULES)).detail).toMatch(/EIP-55/);
    expect(rejection(() => checkSiweMessage(message({ chainId: 137 }), RULES)).detail).toMatch(/Chain ID 137 is not supported/);
  });

  it("refuses text that is not an EIP-4361 message, and one missing Issued At", () => {
    expect(rejection(() => checkSiweMessage("hello", RULES)).code).toBe("SIW-401-001");
    expect(rejection(() => checkSiweMessage(message().replace(/\nIssued At: .*/, ""), RULES)).code).toBe("SIW-401-001");
    expect(rejection(() => checkSiweMessage(message().replace(/Issued At: .*/, "Issued At: yesterday"), RULES)).detail).toMatch(/RFC 3339/);
    expect(rejection(() => checkSiweMessage(message({ statement: "x".repeat(9000) }), RULES)).detail).toMatch(/longer than/);
  });

  it("allows Issued At up to the clock skew in the future, not beyond", () => {
    expect(SIWE_CLOCK_SKEW_MS).toBe(60_000);
    expect(checkSiweMessage(message({ issuedAt: at(SIWE_CLOCK_SKEW_MS) }), RULES).issuedAt).toEqual(at(SIWE_CLOCK_SKEW_MS));
    expect(rejection(() => checkSiweMessage(message({ issuedAt: at(SIWE_CLOCK_SKEW_MS + 1000) }), RULES)).detail).toMatch(/future/);
    expect(rejection(() => checkSiweMessage(message({ issuedAt: at(SIWE_CLOCK_SKEW_MS + 1000) }), { ...RULES, clockSkewMs: 0, now: at(SIWE_CLOCK_SKEW_MS) })).code).toBe(
      "SIW-401-001",
    );
    // an old Issued At is fine: the nonce (10 minutes, single use) bounds a message's age
    expect(checkSiweMessage(message({ issuedAt: at(-3600_000) }), RULES).nonce).toHaveLength(32);
  });

  it("honours Expiration Time (exclusive) and Not Before (inclusive) against the injected clock", () => {
    const expiring = message({ expirationTime: at(5000) });
    expect(checkSiweMessage(expiring, { ...RULES, now: at(4999) }).expirationTime).toEqual(at(5000));
    expect(rejection(() => checkSiweMessage(expiring, { ...RULES, now: at(5000) })).detail).toMatch(/expired/);
    const later = message({ notBefore: at(5000) });
    expect(rejection(() => checkSiweMessage(later, { ...RULES, now: at(4999) })).detail).toMatch(/not valid yet/);
    expect(checkSiweMessage(later, { ...RULES, now: at(5000) }).notBefore).toEqual(at(5000));
    expect(rejection(() => checkSiweMessage(message().replace(/(Issued At: .*)/, "$1\nExpiration Time: soon"), RULES)).detail).toMatch(/Expiration Time is not/);
  });

  it("caps the session at one hour and at the message's Expiration Time", () => {
    expect(SIWE_SESSION_TTL_SECONDS).toBe(3600);
    expect(sessionLifetimeSeconds({}, NOW)).toBe(3600);
    expect(sessionLifetimeSeconds({ expirationTime: at(600_500) }, NOW)).toBe(600);
    expect(sessionLifetimeSeconds({ expirationTime: at(7200_000) }, NOW)).toBe(3600);
    expect(sessionLifetimeSeconds({ expirationTime: at(999) }, NOW)).toBe(0);
    expect(sessionLifetimeSeconds({ expirationTime: at(-1) }, NOW)).toBe(0);
  });
});

describe("SIWE signature check (EOA, no RPC)", () => {
  it("accepts the address's own ECDSA signature without any RPC", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const text = message({ address: account.address, issuedAt: new Date() });
    await expect(verifySiweSignature({ message: text, signature: await account.signMessage({ message: text }), address: account.address, chainId: 8453, now: new Date() })).resolves.toBeUndefined();
  });

  it("refuses another key's signature; without an RPC the detail names the missing RPC", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const text = message({ address: account.address, issuedAt: new Date() });
    const error = await verifySiweSignature({ message: text, signature: await other.signMessage({ message: text }), address: account.address, chainId: 8453, now: new Date() }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("SIW-401-001");
    expect(error.detail).toMatch(/no RPC is configured for chain 8453/);
    const garbage = await verifySiweSignature({ message: text, signature: "0x1234", address: account.address, chainId: 8453, now: new Date() }).catch((e) => e);
    expect(garbage.code).toBe("SIW-401-001");
  });

  it("tells an unreachable RPC from one that answered", () => {
    expect(isRpcUnavailable(new HttpRequestError({ url: "http://rpc", status: 503 }))).toBe(true);
    expect(isRpcUnavailable(new TimeoutError({ body: {}, url: "http://rpc" }))).toBe(true);
    expect(isRpcUnavailable(new RpcRequestError({ body: {}, url: "http://rpc", error: { code: 3, message: "execution reverted" } }))).toBe(false);
    expect(isRpcUnavailable(new Error("x"))).toBe(false);
  });
});
