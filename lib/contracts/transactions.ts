/**
 * Page size of the feed when the client gives none, and the most it may ask for (spec 8 leaves
 * both to us); the card authorizations, card reveals and insights lists page the same way.
 */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

/** The longest note a transaction keeps. */
export const MAX_NOTE_LENGTH = 500;
