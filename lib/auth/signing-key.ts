import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPrivateFile } from "../private-file.ts";
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from "jose";

/** The key the platform signs its own tokens with (SIWE sessions, PINT JWTs), and its JWKS. */
export class SigningKey {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
  ) {}

  get kid(): string {
    return this.publicJwk.kid!;
  }

  get alg(): string {
    return this.publicJwk.alg!;
  }

  /** `SIGNING_KEY` when given; else generated once and kept in `DATA_DIR` (memory: per process). */
  static async load(configured: Record<string, unknown> | undefined, dataDir: string): Promise<SigningKey> {
    if (configured) return SigningKey.fromJwk(configured as JWK);
    const file = dataDir.startsWith("memory://") ? undefined : join(dataDir, "signing-key.json");
    if (file) {
      const stored = readPrivateFile(file, "SIGNING_KEY");
      if (stored !== undefined) return SigningKey.fromJwk(JSON.parse(stored) as JWK);
    }
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), alg: "ES256" };
    if (file) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify(jwk), { mode: 0o600 });
    }
    return SigningKey.fromJwk(jwk);
  }

  static async fromJwk(jwk: JWK): Promise<SigningKey> {
    const alg = jwk.alg ?? (jwk.kty === "EC" ? "ES256" : jwk.kty === "OKP" ? "EdDSA" : "RS256");
    const privateKey = (await importJWK({ ...jwk, alg }, alg)) as CryptoKey;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = jwk;
    const kid = jwk.kid ?? (await calculateJwkThumbprint(publicPart));
    return new SigningKey(privateKey, { ...publicPart, alg, kid, use: "sig" });
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  verificationKeys(): JWTVerifyGetKey {
    return createLocalJWKSet(this.jwks());
  }

  /** `expiresInSeconds` after now, or an absolute `expiresAt` (Unix seconds) with `issuedAt` (default now). */
  sign(
    payload: JWTPayload,
    options: { issuer: string; subject: string; audience?: string | string[] } & ({ expiresInSeconds: number } | { expiresAt: number; issuedAt?: number }),
  ): Promise<string> {
    const issuedAt = "issuedAt" in options && options.issuedAt !== undefined ? options.issuedAt : Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: this.alg, kid: this.kid, typ: "JWT" })
      .setIssuer(options.issuer)
      .setSubject(options.subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime("expiresAt" in options ? options.expiresAt : issuedAt + options.expiresInSeconds);
    if (options.audience !== undefined) jwt.setAudience(options.audience);
    return jwt.sign(this.privateKey);
  }
}
