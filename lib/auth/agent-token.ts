import { generateSecretToken, isWellFormedSecretToken } from "./secret-token.ts";

/** Agent tokens (`x-platform-token`): `plat_agt_` + a secret token (see secret-token.ts). */
export const AGENT_TOKEN_PREFIX = "plat_agt_";

export function generateAgentToken(): string {
  return generateSecretToken(AGENT_TOKEN_PREFIX);
}

export function isWellFormedAgentToken(token: string): boolean {
  return isWellFormedSecretToken(token, AGENT_TOKEN_PREFIX);
}

/** What listings show so a user can tell tokens apart: the prefix and the first characters. */
export function agentTokenDisplayPrefix(token: string): string {
  return token.slice(0, AGENT_TOKEN_PREFIX.length + 6);
}
