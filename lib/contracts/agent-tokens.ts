/** Agent tokens always expire: 30 days unless asked, 90 at most (a leaked token dies on its own). */
export const DEFAULT_AGENT_TOKEN_DAYS = 30;
export const MAX_AGENT_TOKEN_DAYS = 90;
export const MAX_AGENT_TOKEN_NAME_LENGTH = 100;
/** Uses listed per page by default, and at most */
export const DEFAULT_AGENT_TOKEN_USES = 50;
export const MAX_AGENT_TOKEN_USES = 200;
/** Wallets one token may be restricted to, at most */
export const MAX_AGENT_TOKEN_WALLETS = 20;
/** Active (neither revoked nor expired) tokens per user, at most: each spends its user's rate budget too, and fewer live secrets leak less */
export const MAX_ACTIVE_AGENT_TOKENS = 20;
