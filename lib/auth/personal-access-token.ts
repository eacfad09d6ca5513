import { generateSecretToken, isWellFormedSecretToken } from "./secret-token.ts";

export { hashToken } from "./secret-token.ts";

/** Personal access tokens: `plat_pat_` + a secret token (see secret-token.ts). */
export const PAT_PREFIX = "plat_pat_";

export const PAT_SCOPES = ["read", "write"] as const;

export function generatePersonalAccessToken(): string {
  return generateSecretToken(PAT_PREFIX);
}

export function isWellFormedPersonalAccessToken(token: string): boolean {
  return isWellFormedSecretToken(token, PAT_PREFIX);
}

/** What listings show so a user can tell tokens apart: the prefix and the first characters. */
export function displayPrefix(token: string): string {
  return token.slice(0, PAT_PREFIX.length + 6);
}
