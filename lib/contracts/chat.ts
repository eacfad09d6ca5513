/** How long a proposal waits for the user: long enough to read it, short enough not to linger. */
export const CHAT_ACTION_TTL_MS = 10 * 60_000;

export const MAX_CHAT_TITLE_LENGTH = 200;
export const MAX_CHAT_MESSAGE_LENGTH = 4000;
