import { decodeJwt } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { beforeEach, describe, expect, it } from "vitest";
import { SigningKey } from "../../lib/auth/signing-key.ts";
import { AppError, appError } from "../../lib/errors/app-error.ts";
import type { UsersTx } from "../../subgraphs/users/db.ts";
import { completeSiweSignIn, startSiweSignIn, type SiweSettings } from "../../subgraphs/users/siwe/siwe-sign-in.ts";

/**
 * The sign-in flow over an in-memory stand-in for `users.siwe_nonces` and an injected clock. The
 * stand-in's UPDATE applies the same condition as the real statement (the real one, and its
 * atomicity under concurrency, run in test/e2e/auth/siwe.test.ts on PGlite and PostgreSQL).
 */
class FakeNonces {
  rows = new Map<string, { nonce: string; expires_at: Date; used_at: Date | null; created_at: Date }>();
  executed: string[] = [];
  db = {
    siweNonce: {
      create: async ({ data }: { data: { nonce: string; expires_at: Date; created_at: Date } }) => {
        this.rows.set(data.nonce, { ...data, used_at: null });
        return data;
      },
      findUnique: async ({ where }: { where: { nonce: string } }) => this.rows.get(where.nonce) ?? null,
      deleteMany: async ({ where }: { where: { expires_at: { lt: Date } } }) => {
        for (const [key, row] of this.rows) if (row.expires_at < where.expires_at.lt) this.rows.delete(key);
        return { count: 0 };
      },
    },
    $executeRawUnsafe: async (sql: string, nonce: string, now: Date) => {
      this.executed.push(sql);
      const row = this.rows.get(nonce);
      if (!row || row.used_at !== null || row.expires_at <= now) return 0;
      row.used_at = now;
      return 1;
    },
  };
  get tx(): UsersTx {
    return this.db as unknown as UsersTx;
  }
}

const T0 = new Date("2026-03-01T12:00:00.000Z");
const SETTINGS: SiweSettings = { domain: "api.example.com", issuer: "https://siwe.example.com", audience: "platform", baseUrl: "https://api.example.com" };
const CHAINS = [1, 8453];

let nonces: FakeNonces;
let now: Date;
const clock = () => now;
let signingKey: SigningKey;

beforeEach(async () => {
  nonces = new FakeNonces();
  now = T0;
  signingKey ??= await SigningKey.load(undefined, "memory://");
});

async function signed(nonce: string, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  const message = createSiweMessage({ domain: SETTINGS.domain, address: account.address, uri: SETTINGS.baseUrl, version: "1", chainId: 8453, nonce, issuedAt: now, ...overrides });
  return { account, message, signature: await account.signMessage({ message }) };
}

function complete(input: { message: string; signature: string }, extra: Partial<Parameters<typeof completeSiweSignIn>[1]> = {}) {
  return completeSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, chainRpcUrls: {}, signingKey, clock, ...input, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("startSiweSignIn", () => {
  it("stores a nonce valid for 10 minutes from the clock, with the message's values", async () => {
    const challenge = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    expect(challenge).toMatchObject({ domain: "api.example.com", uri: "https://api.example.com", scheme: "https", version: "1", chain_ids: CHAINS });
    expect(challenge.expires_at).toEqual(new Date(T0.getTime() + 600_000));
    expect(nonces.rows.get(challenge.nonce)).toMatchObject({ expires_at: challenge.expires_at, used_at: null, created_at: T0 });
  });

  it("purges expired nonces as it issues new ones", async () => {
    const old = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock, nonceTtlMs: 1000 });
    now = new Date(T0.getTime() + 3600_000);
    await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    expect(nonces.rows.has(old.nonce)).toBe(false);
  });

  it("is 503 SIW-503-001 when siwe is not configured", async () => {
    expect((await failure(startSiweSignIn(nonces.tx, { siwe: undefined, supportedChainIds: CHAINS, clock }))).code).toBe("SIW-503-001");
  });
});

describe("completeSiweSignIn", () => {
  it("issues a JWT: iss, sub (checksummed address), aud, chain_id, one hour", async () => {
    now = new Date(); // the token's iat/exp come from the signing key's own clock
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const { account, message, signature } = await signed(nonce);
    const session = await complete({ message, signature });
    expect(session).toMatchObject({ token_type: "JWT", address: account.address, chain_id: 8453, issuer: SETTINGS.issuer });
    const claims = decodeJwt(session.token);
    expect(claims).toMatchObject({ iss: SETTINGS.issuer, sub: account.address, aud: "platform", chain_id: 8453 });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(session.expires_at.getTime()).toBe(claims.exp! * 1000);
    expect(nonces.rows.get(nonce)!.used_at).toEqual(now);
    expect(nonces.executed[0]).toMatch(/UPDATE "users"\."siwe_nonces" SET used_at = \$2 WHERE nonce = \$1 AND used_at IS NULL AND expires_at > \$2/);
  });

  it("accepts the nonce until 10 minutes after issue, not at 10 minutes", async () => {
    const first = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const second = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    now = new Date(T0.getTime() + 600_000 - 1);
    await expect(complete(await signed(first.nonce, { issuedAt: T0 }))).resolves.toMatchObject({ token_type: "JWT" });
    now = new Date(T0.getTime() + 600_000);
    const error = await failure(complete(await signed(second.nonce, { issuedAt: T0 })));
    expect(error.code).toBe("SIW-401-002");
    expect(error.detail).toMatch(/expired/);
  });

  it("refuses a used nonce and an unknown one: SIW-401-002", async () => {
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const input = await signed(nonce);
    await complete(input);
    expect((await failure(complete(input))).detail).toMatch(/already been used/);
    expect((await failure(complete(await signed("neverissued0000")))).detail).toMatch(/not issued/);
  });

  it("checks the message before the nonce, and the nonce before the signature", async () => {
    let signatureChecks = 0;
    const verifySignature = async () => {
      signatureChecks++;
    };
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    expect((await failure(complete(await signed(nonce, { domain: "evil.example.com" }), { verifySignature }))).code).toBe("SIW-401-001");
    expect((await failure(complete(await signed("unknownnonce123"), { verifySignature }))).code).toBe("SIW-401-002");
    expect(signatureChecks).toBe(0);
    expect(nonces.rows.get(nonce)!.used_at).toBeNull();
  });

  it("does not consume the nonce when the signature fails or the chain is unavailable", async () => {
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const input = await signed(nonce);
    const other = await signed(nonce);
    expect((await failure(complete({ message: input.message, signature: other.signature }))).code).toBe("SIW-401-001");
    const unavailable = async () => {
      throw appError("CHN-502-001");
    };
    expect((await failure(complete(input, { verifySignature: unavailable }))).code).toBe("CHN-502-001");
    expect(nonces.rows.get(nonce)!.used_at).toBeNull();
    await expect(complete(input)).resolves.toMatchObject({ address: input.account.address });
  });

  it("refuses a signature that is not hex of whole bytes before any check of it", async () => {
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const { message } = await signed(nonce);
    for (const signature of ["0xzz", "0x123", "abcd", `0x${"00".repeat(20000)}`]) {
      const error = await failure(complete({ message, signature }, { chainRpcUrls: { 8453: "http://127.0.0.1:9" } }));
      expect(error.code).toBe("SIW-401-001");
      expect(error.detail).toMatch(/hex/);
    }
  });

  it("loses the race cleanly: a nonce consumed while the signature was checked is SIW-401-002", async () => {
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const input = await signed(nonce);
    const racing = async () => {
      nonces.rows.get(nonce)!.used_at = now; // another request won meanwhile
    };
    const error = await failure(complete(input, { verifySignature: racing }));
    expect(error.code).toBe("SIW-401-002");
  });

  it("ends the session at the message's Expiration Time when sooner than an hour", async () => {
    now = new Date();
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const expirationTime = new Date(now.getTime() + 120_000);
    const session = await complete(await signed(nonce, { expirationTime }));
    expect(session.expires_at.getTime()).toBeLessThanOrEqual(expirationTime.getTime());
    expect(session.expires_at.getTime()).toBeGreaterThan(expirationTime.getTime() - 3000);
  });

  it("omits aud when the provider has no audience, and is 503 without siwe", async () => {
    now = new Date();
    const { nonce } = await startSiweSignIn(nonces.tx, { siwe: SETTINGS, supportedChainIds: CHAINS, clock });
    const { audience: _audience, ...noAudience } = SETTINGS;
    const session = await complete(await signed(nonce), { siwe: noAudience });
    expect(decodeJwt(session.token)).not.toHaveProperty("aud");
    expect((await failure(complete(await signed(nonce), { siwe: undefined }))).code).toBe("SIW-503-001");
  });
});
