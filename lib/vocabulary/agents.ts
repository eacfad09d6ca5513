/**
 * Spec 2.10: what an agent token may do. A write scope does not include the read scope of the
 * same data: a token that should read and write asks for both.
 */
export const AGENT_TOKEN_SCOPES = ["read:transactions", "read:balances", "write:transfers", "write:strategies"] as const;
export type AgentTokenScope = (typeof AGENT_TOKEN_SCOPES)[number];

/** Spec 2.10's chat message types. */
export const CHAT_MESSAGE_TYPES = ["user", "assistant", "tool_call", "tool_result"] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];
