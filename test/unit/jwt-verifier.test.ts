import { createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_JWKS_POLICY } from "../../lib/auth/jwks-fetch.ts";
import { isExpiredJwt, JwtVerifier, UNVERIFIED_JWT_DETAIL, VERIFIED_JWT_MAX_AGE_MS } from "../../lib/auth/jwt-verifier.ts";
import { RemoteKeySet } from "../../lib/auth/remote-key-set.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { TestIssuer } from "../support/jwt-issuer.ts";

const DEV = { allowLoopbackHttp: true };
let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await TestIssuer.start();
});
afterAll(() => issuer?.stop());

async function failure(promise: Promise<unknown>): Promise<{ code: string; detail: string }> {
  const error = await promise.then(
    () => {
      throw new Error("expected verification to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, detail: (error as AppError).detail };
}

describe("JwtVerifier: jwks_uri targets are checked when the keys are fetched, whatever the configuration said", () => {
  it.each([
    ["loopback (without the development switch)", () => issuer.jwksUri.replace("http:", "https:")],
    ["a name resolving to loopback", () => `https://localhost:${new URL(issuer.jwksUri).port}/.well-known/jwks.json`],
    ["cloud metadata", () => "https://169.254.169.254/latest/meta-data"],
    ["a private network", () => "https://10.20.30.40/jwks.json"],
    ["plain http", () => issuer.jwksUri],
  ])("refuses a provider whose jwks_uri points at %s, without a request", async (_, jwksUri) => {
    const before = issuer.jwksRequests;
    const verifier = new JwtVerifier([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: jwksUri() }], undefined, STRICT_JWKS_POLICY);
    expect(await failure(verifier.verify(await issuer.sign()))).toEqual({ code: "USR-401-001", detail: UNVERIFIED_JWT_DETAIL });
    expect(issuer.jwksRequests).toBe(before);
  });

  it("verifies from loopback under the development switch", async () => {
    const verifier = new JwtVerifier([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }], undefined, DEV);
    await expect(verifier.verify(await issuer.sign({ sub: "alice" }))).resolves.toMatchObject({ subject: "alice" });
  });
});

describe("JwtVerifier: aud is required where the provider names an audience", () => {
  const verifier = () => new JwtVerifier([{ name: "provider_b", issuer: issuer.issuer, public_key: issuer.publicJwk as Record<string, unknown>, audience: ["app-b", "app-c"] }]);

  it("refuses a token without aud, and one for another audience", async () => {
    expect(await failure(verifier().verify(await issuer.sign({ aud: undefined })))).toEqual({ code: "USR-401-001", detail: "The JWT claim aud is missing or invalid." });
    expect(await failure(verifier().verify(await issuer.sign({ aud: "app-z" })))).toMatchObject({ code: "USR-401-001" });
  });

  it("accepts a token for one of the audiences", async () => {
    await expect(verifier().verify(await issuer.sign({ aud: "app-c" }))).resolves.toMatchObject({ provider: "provider_b" });
  });

  it("requires no aud where no audience is configured", async () => {
    const open = new JwtVerifier([{ name: "provider_a", issuer: issuer.issuer, public_key: issuer.publicJwk as Record<string, unknown> }]);
    await expect(open.verify(await issuer.sign({ aud: undefined }))).resolves.toMatchObject({ provider: "provider_a" });
  });
});

describe("RemoteKeySet: an unknown kid fetches the keys again at once, within a per-provider budget", () => {
  function keySet(options: { now: () => number }) {
    let fetches = 0;
    let jwks: JSONWebKeySet | undefined = { keys: [{ ...issuer.publicJwk }] };
    const set = new RemoteKeySet("https://issuer.example.com/jwks.json", STRICT_JWKS_POLICY, {
      ...options,
      fetch: async () => {
        fetches++;
        if (!jwks) throw new Error("provider down");
        return jwks;
      },
    });
    return { set, fetches: () => fetches, publish: (next: JSONWebKeySet | undefined) => (jwks = next) };
  }
  const header = (kid: string) => ({ alg: issuer.alg, kid });
  const token = { payload: "", signature: "" };

  it("a rotated key verifies on its first use, with one fetch", async () => {
    const { set, fetches, publish } = keySet({ now: () => 0 });
    await set.getKey(header(issuer.publicJwk.kid!), token);
    await issuer.rotate();
    publish({ keys: [{ ...issuer.publicJwk }] });
    await expect(set.getKey(header(issuer.publicJwk.kid!), token)).resolves.toBeDefined();
    expect(fetches()).toBe(2);
  });

  it("made-up kids spend the burst, then one fetch per refill interval", async () => {
    let now = 0;
    const { set, fetches } = keySet({ now: () => now });
    await set.getKey(header(issuer.publicJwk.kid!), token); // the first load takes one of 3
    for (let i = 0; i < 10; i++) await expect(set.getKey(header(`made-up-${i}`), token)).rejects.toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
    expect(fetches()).toBe(3);
    now += 5_000;
    for (let i = 0; i < 10; i++) await expect(set.getKey(header(`made-up-${i}`), token)).rejects.toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
    expect(fetches()).toBe(4);
    // known keys keep verifying from the cache meanwhile
    await expect(set.getKey(header(issuer.publicJwk.kid!), token)).resolves.toBeDefined();
    expect(fetches()).toBe(4);
  });

  it("refreshes keys older than ten minutes before use, and keeps them while the provider is down", async () => {
    let now = 0;
    const { set, fetches, publish } = keySet({ now: () => now });
    await set.getKey(header(issuer.publicJwk.kid!), token);
    now += 10 * 60_000;
    await set.getKey(header(issuer.publicJwk.kid!), token);
    expect(fetches()).toBe(2);
    publish(undefined);
    now += 10 * 60_000;
    await expect(set.getKey(header(issuer.publicJwk.kid!), token)).resolves.toBeDefined();
    expect(fetches()).toBe(3);
  });

  it("without any keys yet, a failed fetch fails the verification", async () => {
    const { set, publish } = keySet({ now: () => 0 });
    publish(undefined);
    await expect(set.getKey(header(issuer.publicJwk.kid!), token)).rejects.toThrow("provider down");
  });
});

describe("JwtVerifier: a verified token is trusted again until its exp, at most VERIFIED_JWT_MAX_AGE_MS, without checking its signature", () => {
  function counting(clock: () => number) {
    let lookups = 0;
    const keys = createLocalJWKSet({ keys: [issuer.publicJwk] });
    const verifier = new JwtVerifier([{ name: "provider_a", issuer: issuer.issuer }], (header, token) => (lookups++, keys(header, token)), STRICT_JWKS_POLICY, clock);
    return { verifier, lookups: () => lookups };
  }
  const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

  it("verifies a token once and answers the same token from memory; another token is verified", async () => {
    const { verifier, lookups } = counting(Date.now);
    const token = await issuer.sign({ sub: "alice", exp: inSeconds(3600) });
    const first = await verifier.verify(token);
    await expect(verifier.verify(token)).resolves.toEqual(first);
    expect(lookups()).toBe(1);
    await expect(verifier.verify(await issuer.sign({ sub: "bob", exp: inSeconds(3600) }))).resolves.toMatchObject({ subject: "bob" });
    expect(lookups()).toBe(2);
  });

  it("verifies again once the token's exp has passed, and after VERIFIED_JWT_MAX_AGE_MS", async () => {
    let now = Date.now();
    const { verifier, lookups } = counting(() => now);
    const shortLived = await issuer.sign({ sub: "alice", exp: inSeconds(60) });
    await verifier.verify(shortLived);
    now += 61_000;
    await verifier.verify(shortLived);
    expect(lookups()).toBe(2);

    const longLived = await issuer.sign({ sub: "bob", exp: inSeconds(3600) });
    await verifier.verify(longLived);
    now += VERIFIED_JWT_MAX_AGE_MS - 1;
    await verifier.verify(longLived);
    expect(lookups()).toBe(3);
    now += 1;
    await verifier.verify(longLived);
    expect(lookups()).toBe(4);
  });

  it("keeps no failure: a refused token is refused every time, checked every time", async () => {
    const { verifier, lookups } = counting(Date.now);
    const token = await issuer.sign({ sub: "alice", exp: inSeconds(3600) });
    const [header, payload, signature] = token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), sub: "mallory" })).toString("base64url")}.${signature}`;
    for (let i = 0; i < 2; i++) expect(await failure(verifier.verify(forged))).toEqual({ code: "USR-401-001", detail: UNVERIFIED_JWT_DETAIL });
    expect(lookups()).toBe(2);
  });

  it("tells a genuine expired token (the refresh path) from a forged one, and checks a genuine expired token's signature once", async () => {
    const { verifier, lookups } = counting(Date.now);
    const expired = await issuer.sign({ sub: "alice", exp: inSeconds(-120) });
    for (let i = 0; i < 3; i++) {
      const error = await verifier.verify(expired).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "USR-401-001", detail: "The JWT has expired." });
      expect(isExpiredJwt(error)).toBe(true);
    }
    expect(lookups()).toBe(1);
    // an expired token whose signature does not verify is a forgery, not an expiry
    const [header, payload] = expired.split(".");
    const forged = `${header}.${payload}.${"A".repeat(86)}`;
    const error = await verifier.verify(forged).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "USR-401-001", detail: UNVERIFIED_JWT_DETAIL });
    expect(isExpiredJwt(error)).toBe(false);
  });
});
