import { errors as joseErrors, jwtVerify } from "jose";
import type { SigningKey } from "../../../lib/auth/signing-key.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { IdentityDb } from "../db.ts";
import type { MandateRow } from "./mandates.ts";

/**
 * The PINT JWT: signed with the platform key (SIGNING_KEY; public keys at
 * `{sis_url}/.well-known/jwks.json`). Claims: `iss` {sis_url}, `sub` the user id, `aud` the
 * mandate's audience, `jti` the mandate id (`pint_…`), `scope` (space-separated) and `scopes`
 * (array) the mandate's scopes, `wallet`, `chain_id`, `org_id`, `token_use: "pint"`, `iat`, and
 * `exp`: the mandate's `expiresAt`, but at most one hour after issue.
 */
export const PINT_TOKEN_MAX_LIFETIME_SECONDS = 3600;
const TOKEN_USE = "pint";

export async function issuePintToken(signingKey: SigningKey, issuer: string, row: MandateRow, now = Date.now()): Promise<{ token: string; expires_at: Date }> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = Math.min(issuedAt + PINT_TOKEN_MAX_LIFETIME_SECONDS, Math.floor(row.expires_at.getTime() / 1000));
  const token = await signingKey.sign(
    { jti: row.id, scope: row.scopes.join(" "), scopes: row.scopes, wallet: row.wallet, chain_id: row.chain_id, org_id: row.organisation_id, token_use: TOKEN_USE },
    { issuer, subject: row.user_id, audience: row.audience, issuedAt, expiresAt },
  );
  return { token, expires_at: new Date(expiresAt * 1000) };
}

export interface ResolvedPint {
  mandate_id: string;
  user_id: string;
  scopes: string[];
  audience: string;
  org_id: string;
}

/**
 * A presented PINT JWT, checked on every request: signature and issuer (PINT-401-003), expiry
 * (PINT-401-004), then the mandate's row: gone or not this token's (PINT-401-003), revoked
 * (PINT-401-006, effective immediately), expired (PINT-401-004).
 */
export async function resolvePintToken(db: IdentityDb, signingKey: SigningKey, issuer: string, token: string, now = new Date()): Promise<ResolvedPint> {
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, signingKey.verificationKeys(), { issuer, algorithms: [signingKey.alg], currentDate: now }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw appError("PINT-401-004", undefined, { cause: error });
    throw appError("PINT-401-003", undefined, { cause: error });
  }
  if (claims.token_use !== TOKEN_USE || typeof claims.jti !== "string" || typeof claims.sub !== "string") throw appError("PINT-401-003", "This JWT is not a PINT token.");
  const row = await db.pintMandate.findUnique({ where: { id: claims.jti } });
  if (!row || row.user_id !== claims.sub) throw appError("PINT-401-003", "The PINT token's mandate does not exist.");
  if (row.revoked_at) throw appError("PINT-401-006", `The mandate ${row.id} behind this PINT token was revoked by the ${row.revoked_by ?? "user"}.`);
  if (row.expires_at <= now) throw appError("PINT-401-004", "The mandate behind this PINT token has expired.");
  return { mandate_id: row.id, user_id: row.user_id, scopes: row.scopes, audience: row.audience, org_id: row.organisation_id };
}
