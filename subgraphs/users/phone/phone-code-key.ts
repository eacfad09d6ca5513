import { hkdfSync, randomBytes } from "node:crypto";

const SALT = "platform/users";
const INFO = "phone-verification-code/v1";

export interface PhoneCodeKeySource {
  /** the configured SIGNING_KEY (a private JWK): its private part is the preferred key material */
  signingKeyJwk?: Record<string, unknown>;
  /** INTERNAL_SECRET, the next best per-deployment secret */
  internalSecret?: string;
}

/**
 * The HMAC key for SMS codes: a per-deployment secret that never sits in the database beside the
 * hashes. Derived with HKDF-SHA256 (its own `info` label, so it is independent of what the source
 * secret signs) from the configured SIGNING_KEY's private part, else from INTERNAL_SECRET. With
 * neither configured (development, one process) it is random per process: a restart then voids
 * codes still pending, which live ten minutes anyway. Several processes serving the users
 * subgraph must share SIGNING_KEY (or INTERNAL_SECRET), as they must for tokens anyway.
 */
export function derivePhoneCodeKey(source: PhoneCodeKeySource): Uint8Array {
  const jwk = source.signingKeyJwk;
  const privatePart = jwk && ["d", "k", "priv"].map((name) => jwk[name]).find((v): v is string => typeof v === "string" && v !== "");
  const material = privatePart ? Buffer.from(privatePart, "utf8") : source.internalSecret ? Buffer.from(source.internalSecret, "utf8") : randomBytes(32);
  return new Uint8Array(hkdfSync("sha256", material, SALT, INFO, 32));
}
