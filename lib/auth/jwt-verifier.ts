import { createLocalJWKSet, decodeJwt, errors as joseErrors, importJWK, importSPKI, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey, type CryptoKey, type JWSHeaderParameters } from "jose";
import { hash } from "node:crypto";
import { BoundedMap } from "../bounded-map.ts";
import type { AuthProviderConfig } from "../config.ts";
import { appError } from "../errors/app-error.ts";
import { STRICT_JWKS_POLICY, type JwksUriPolicy } from "./jwks-fetch.ts";
import { RemoteKeySet } from "./remote-key-set.ts";

/** Asymmetric algorithms only: a provider's public key must never double as an HMAC secret. */
const ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"];

export interface VerifiedJwt {
  provider: string;
  issuer: string;
  subject: string;
  claims: JWTPayload;
}

function pinnedKey(publicKey: string | Record<string, unknown>): JWTVerifyGetKey {
  if (typeof publicKey === "object") {
    const jwk = publicKey as JWK;
    // a JWK that names its algorithm is a one-key set; otherwise import it for the token's alg
    if (jwk.alg) return createLocalJWKSet({ keys: [jwk] });
    const cache = new Map<string, Promise<CryptoKey | Uint8Array>>();
    return async (header: JWSHeaderParameters) => {
      const alg = header.alg ?? "";
      if (!cache.has(alg)) cache.set(alg, importJWK(jwk, alg));
      return cache.get(alg)!;
    };
  }
  const cache = new Map<string, Promise<CryptoKey>>();
  return async (header: JWSHeaderParameters) => {
    const alg = header.alg ?? "";
    if (!cache.has(alg)) cache.set(alg, importSPKI(publicKey, alg));
    return cache.get(alg)!;
  };
}

/** A verified token is trusted again without its signature check for at most this long (and never past its `exp`). */
export const VERIFIED_JWT_MAX_AGE_MS = 5 * 60_000;
const VERIFIED_JWT_CACHE_SIZE = 10_000;

/**
 * Tokens verified lately, by digest: a client sends the same JWT on every request until it
 * expires, and checking its ECDSA signature each time cost a tenth of a request's CPU. Only
 * successes are kept; an entry ends at the token's `exp` or after VERIFIED_JWT_MAX_AGE_MS, so a
 * key a provider withdraws from its JWKS stops being honoured within that bound.
 */
class VerifiedJwtCache {
  private readonly entries = new BoundedMap<string, { verified: VerifiedJwt; until: number }>(VERIFIED_JWT_CACHE_SIZE);
  constructor(private readonly clock: () => number) {}

  static digest(token: string): string {
    return hash("sha256", token, "base64url");
  }

  get(digest: string): VerifiedJwt | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (this.clock() < entry.until) return entry.verified;
    this.entries.delete(digest);
    return undefined;
  }

  set(digest: string, verified: VerifiedJwt): void {
    const now = this.clock();
    const until = Math.min((verified.claims.exp ?? 0) * 1000, now + VERIFIED_JWT_MAX_AGE_MS);
    if (until <= now) return;
    this.entries.set(digest, { verified, until });
  }
}

interface Provider {
  config: AuthProviderConfig;
  key: JWTVerifyGetKey;
}

/**
 * Verifies `x-platform-jwt` against the configured providers: the issuer is read from the
 * unverified `iss`, then the token is verified with that provider's keys (a JWKS fetched under
 * `jwksPolicy` and cached, fetched again at once when an unknown `kid` appears, so key rotation
 * needs no restart: see RemoteKeySet). A provider that names an audience requires `aud`.
 */
export class JwtVerifier {
  private readonly providers = new Map<string, Provider>();
  private readonly verified: VerifiedJwtCache;
  /** digests of genuine tokens past their `exp`: a client retrying one costs no second signature check */
  private readonly expired = new BoundedMap<string, true>(VERIFIED_JWT_CACHE_SIZE);

  /** `clock`: milliseconds since the epoch, for tests of the cache of verified tokens */
  constructor(configs: AuthProviderConfig[], localKeys?: JWTVerifyGetKey, jwksPolicy: JwksUriPolicy = STRICT_JWKS_POLICY, clock: () => number = Date.now) {
    this.verified = new VerifiedJwtCache(clock);
    for (const config of configs) {
      let key: JWTVerifyGetKey;
      if (config.jwks_uri) key = new RemoteKeySet(config.jwks_uri, jwksPolicy).getKey;
      else if (config.public_key) key = pinnedKey(config.public_key);
      else if (localKeys) key = localKeys;
      else throw new Error(`provider ${config.name} has no key source`);
      this.providers.set(config.issuer, { config, key });
    }
  }

  get issuers(): string[] {
    return [...this.providers.keys()];
  }

  async verify(token: string | undefined): Promise<VerifiedJwt> {
    if (!token) throw appError("USR-401-001", "The x-platform-jwt header is missing.");
    const digest = VerifiedJwtCache.digest(token);
    const cached = this.verified.get(digest);
    if (cached) return cached;
    if (this.expired.has(digest)) throw expiredJwt();
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw appError("USR-401-001", "The JWT is malformed.");
    }
    if (typeof issuer !== "string") throw appError("USR-401-001", "The JWT has no iss claim.");
    const provider = this.providers.get(issuer);
    if (!provider) throw appError("USR-401-001", "The JWT issuer is not accepted here.");
    const { config } = provider;
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, provider.key, {
        issuer: config.issuer,
        algorithms: ALGORITHMS,
        requiredClaims: config.audience !== undefined ? ["sub", "exp", "iss", "aud"] : ["sub", "exp", "iss"],
        ...(config.audience !== undefined && { audience: config.audience }),
      }));
    } catch (error) {
      // jose checks claims only after the signature verified: an expired token is genuine, just old
      if (error instanceof joseErrors.JWTExpired) {
        this.expired.set(digest, true);
        throw expiredJwt();
      }
      throw appError("USR-401-001", describe(error), { cause: error });
    }
    if (config.mode === "app_id_only" && claims.linked_accounts === undefined)
      throw appError("USR-401-001", "This environment accepts identity tokens only.");
    const verified = { provider: config.name, issuer, subject: claims.sub!, claims };
    this.verified.set(digest, verified);
    return verified;
  }
}

/** The cause of a 401 for a token whose signature verified but whose `exp` has passed: spec 5.1.4's refresh path, not an attack. */
export class ExpiredJwt extends Error {
  constructor() {
    super("The JWT has expired.");
    this.name = "ExpiredJwt";
  }
}

function expiredJwt() {
  return appError("USR-401-001", "The JWT has expired.", { cause: new ExpiredJwt() });
}

/** Whether `error` (or an error it wraps) refuses a genuine but expired token. */
export function isExpiredJwt(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) if (current instanceof ExpiredJwt) return true;
  return false;
}

/**
 * Claim failures are reported as they are: jose checks claims only after the signature verified.
 * Everything before that (the issuer's keys could not be fetched, no key matches, the signature
 * is wrong) is one answer, so the error cannot tell an attacker what a `jwks_uri` reached.
 */
export const UNVERIFIED_JWT_DETAIL = "The JWT could not be verified.";

function describe(error: unknown): string {
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `The JWT claim ${error.claim} is missing or invalid.`;
  return UNVERIFIED_JWT_DETAIL;
}
