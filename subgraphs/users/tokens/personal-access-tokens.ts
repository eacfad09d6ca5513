import { displayPrefix, generatePersonalAccessToken, hashToken, PAT_SCOPES } from "../../../lib/auth/personal-access-token.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import type { UsersDb } from "../db.ts";

export const MAX_TOKEN_LIFETIME_DAYS = 366;

/** Issues a PAT: the plaintext is returned once, only the SHA-256 hash is stored. */
export async function createPersonalAccessToken(db: UsersDb, options: { user_id: string; name: string; scopes: string[]; expires_in_days?: number | null; now?: Date }) {
  const unknown = options.scopes.filter((s) => !isOneOf(PAT_SCOPES, s));
  if (options.scopes.length === 0 || unknown.length > 0)
    throw validationError(["scopes"], `Value error, scopes must be a non-empty subset of ${PAT_SCOPES.join(", ")}`, options.scopes);
  const now = options.now ?? new Date();
  const days = options.expires_in_days;
  if (days != null && (days < 1 || days > MAX_TOKEN_LIFETIME_DAYS))
    throw validationError(["expires_in_days"], `Value error, must be between 1 and ${MAX_TOKEN_LIFETIME_DAYS}`, days);
  const token = generatePersonalAccessToken();
  const row = await db.personalAccessToken.create({
    data: {
      id: newId("pat"),
      user_id: options.user_id,
      name: options.name,
      token_hash: hashToken(token),
      token_prefix: displayPrefix(token),
      scopes: [...new Set(options.scopes)],
      expires_at: days != null ? new Date(now.getTime() + days * 86_400_000) : null,
    },
  });
  return { ...row, token };
}

export function listPersonalAccessTokens(db: UsersDb, userId: string) {
  return db.personalAccessToken.findMany({ where: { user_id: userId }, orderBy: { created_at: "desc" } });
}

/** Revocation is immediate: the gateway looks tokens up on every request. Revoking twice is harmless. */
export async function revokePersonalAccessToken(db: UsersDb, options: { user_id: string; token_id: string }) {
  const row = await db.personalAccessToken.findFirst({ where: { id: options.token_id, user_id: options.user_id } });
  if (!row) throw appError("PAT-404-001");
  if (row.revoked_at) return row;
  return db.personalAccessToken.update({ where: { id: row.id }, data: { revoked_at: new Date() } });
}
