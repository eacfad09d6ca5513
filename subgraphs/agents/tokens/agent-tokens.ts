import { agentTokenDisplayPrefix, generateAgentToken, isWellFormedAgentToken } from "../../../lib/auth/agent-token.ts";
import { hashToken } from "../../../lib/auth/secret-token.ts";
import { DEFAULT_AGENT_TOKEN_DAYS, DEFAULT_AGENT_TOKEN_USES, MAX_ACTIVE_AGENT_TOKENS, MAX_AGENT_TOKEN_DAYS, MAX_AGENT_TOKEN_NAME_LENGTH, MAX_AGENT_TOKEN_USES, MAX_AGENT_TOKEN_WALLETS } from "../../../lib/contracts/agent-tokens.ts";
import { lockKey } from "../../../lib/db/advisory-lock.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { AGENT_TOKEN_SCOPES, type AgentTokenScope } from "../../../lib/vocabulary/agents.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import type { AgentsDb } from "../db.ts";

export interface IssueAgentToken {
  user_id: string;
  environment_id: string;
  name: string;
  scopes: string[];
  expires_in_days?: number | null;
  /** the wallets it may read (already checked to be the user's); empty or absent: all of them */
  wallet_ids?: number[] | null;
  now?: Date;
}

/** A restriction as asked: distinct positive wallet ids, at most MAX_AGENT_TOKEN_WALLETS. */
export function walletRestriction(walletIds: number[] | null | undefined): number[] {
  if (walletIds == null) return [];
  const ids = [...new Set(walletIds)];
  if (walletIds.length === 0 || ids.length > MAX_AGENT_TOKEN_WALLETS || ids.some((id) => !Number.isInteger(id) || id < 1))
    throw validationError(["wallet_ids"], `Value error, 1 to ${MAX_AGENT_TOKEN_WALLETS} wallet ids of yours; omit it for all of them`, walletIds);
  return ids.sort((a, b) => a - b);
}

/** Issues an agent token: the plaintext is returned once, only its SHA-256 hash is stored. */
export async function issueAgentToken(db: AgentsDb, options: IssueAgentToken) {
  const name = options.name.trim();
  if (name.length === 0 || name.length > MAX_AGENT_TOKEN_NAME_LENGTH)
    throw validationError(["name"], `Value error, name must be 1 to ${MAX_AGENT_TOKEN_NAME_LENGTH} characters`, options.name);
  const unknown = options.scopes.filter((scope) => !isOneOf(AGENT_TOKEN_SCOPES, scope));
  if (options.scopes.length === 0 || unknown.length > 0)
    throw appError("AGT-422-001", unknown.length > 0 ? `Unknown agent token scopes: ${unknown.join(", ")}; use ${AGENT_TOKEN_SCOPES.join(", ")}.` : undefined);
  const days = options.expires_in_days ?? DEFAULT_AGENT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_AGENT_TOKEN_DAYS)
    throw validationError(["expires_in_days"], `Value error, must be between 1 and ${MAX_AGENT_TOKEN_DAYS}`, options.expires_in_days);
  const now = options.now ?? new Date();
  const token = generateAgentToken();
  const row = await db.$transaction(async (tx) => {
    // serialises one user's issuing, so concurrent requests cannot pass the cap together
    await lockKey(tx, `agent-tokens:${options.user_id}`);
    const active = await tx.agentToken.count({ where: { user_id: options.user_id, revoked_at: null, expires_at: { gt: now } } });
    if (active >= MAX_ACTIVE_AGENT_TOKENS)
      throw appError("AGT-409-001", `You have ${active} active agent tokens, the most a user may hold (${MAX_ACTIVE_AGENT_TOKENS}); revoke one (DELETE /v0/agent/tokens/{token_id}) before issuing another.`);
    return tx.agentToken.create({
      data: {
        id: newId("agt"),
        user_id: options.user_id,
        environment_id: options.environment_id,
        name,
        token_hash: hashToken(token),
        token_prefix: agentTokenDisplayPrefix(token),
        scopes: AGENT_TOKEN_SCOPES.filter((scope) => options.scopes.includes(scope)),
        wallet_ids: walletRestriction(options.wallet_ids),
        expires_at: new Date(now.getTime() + days * 86_400_000),
      },
    });
  });
  return { ...row, token };
}

export function listAgentTokens(db: AgentsDb, userId: string) {
  return db.agentToken.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }] });
}

async function ownToken(db: AgentsDb, userId: string, tokenId: string) {
  const row = await db.agentToken.findFirst({ where: { id: tokenId, user_id: userId } });
  if (!row) throw appError("AGT-404-001");
  return row;
}

/** Revocation takes effect on the token's next request (the gateway looks it up every time). Revoking twice is harmless. */
export async function revokeAgentToken(db: AgentsDb, options: { user_id: string; token_id: string; now?: Date }) {
  const row = await ownToken(db, options.user_id, options.token_id);
  if (row.revoked_at) return row;
  return db.agentToken.update({ where: { id: row.id }, data: { revoked_at: options.now ?? new Date() } });
}

/** The token's latest uses, newest first. */
export async function listAgentTokenUses(db: AgentsDb, options: { user_id: string; token_id: string; limit?: number | null }) {
  const limit = options.limit ?? DEFAULT_AGENT_TOKEN_USES;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AGENT_TOKEN_USES)
    throw validationError(["limit"], `Value error, must be between 1 and ${MAX_AGENT_TOKEN_USES}`, options.limit);
  await ownToken(db, options.user_id, options.token_id);
  return db.agentTokenUse.findMany({ where: { token_id: options.token_id }, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit });
}

export interface AgentTokenPrincipal {
  token_id: string;
  user_id: string;
  environment_id: string;
  scopes: AgentTokenScope[];
  wallet_ids: number[];
}

/** The live token behind a presented secret, or null (malformed, unknown, revoked or expired). */
export async function principalForAgentToken(db: AgentsDb, token: string, now: Date = new Date()): Promise<AgentTokenPrincipal | null> {
  if (!isWellFormedAgentToken(token)) return null;
  const row = await db.agentToken.findUnique({ where: { token_hash: hashToken(token) } });
  if (!row || row.revoked_at || row.expires_at <= now) return null;
  return { token_id: row.id, user_id: row.user_id, environment_id: row.environment_id, scopes: row.scopes.filter((scope) => isOneOf(AGENT_TOKEN_SCOPES, scope)), wallet_ids: row.wallet_ids ?? [] };
}

/** One use of a token (the operation, `ok` or the refusing code), and the token's last_used_at. */
export async function recordAgentTokenUse(db: AgentsDb, use: { token_id: string; operation: string; outcome: string; at?: Date }): Promise<void> {
  const at = use.at ?? new Date();
  await db.$transaction([
    db.agentTokenUse.create({ data: { token_id: use.token_id, operation: use.operation.slice(0, 200), outcome: use.outcome.slice(0, 100), at } }),
    db.agentToken.update({ where: { id: use.token_id }, data: { last_used_at: at } }),
  ]);
}
