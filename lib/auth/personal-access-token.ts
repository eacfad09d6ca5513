import { createHash, randomBytes } from "node:crypto";

/**
 * Personal access tokens look like `plat_pat_<40 base62 chars><6 char checksum>`: the fixed
 * prefix lets secret scanners spot a leaked token, and the CRC32 checksum lets them (and us)
 * reject typos without a database read. Only the SHA-256 hash is stored.
 */
export const PAT_PREFIX = "plat_pat_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;

export const PAT_SCOPES = ["read", "write"] as const;
export type PatScope = (typeof PAT_SCOPES)[number];

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function generatePersonalAccessToken(): string {
  // rejection sampling keeps every character uniform: 40 chars ≈ 238 bits of entropy
  let body = "";
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${PAT_PREFIX}${body}${base62(crc32(body), CHECKSUM_LENGTH)}`;
}

/** True when the token has our shape and its checksum matches. */
export function isWellFormedPersonalAccessToken(token: string): boolean {
  if (!token.startsWith(PAT_PREFIX) || token.length !== PAT_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const rest = token.slice(PAT_PREFIX.length);
  if (![...rest].every((ch) => ALPHABET.includes(ch))) return false;
  const body = rest.slice(0, BODY_LENGTH);
  return rest.slice(BODY_LENGTH) === base62(crc32(body), CHECKSUM_LENGTH);
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What listings show so a user can tell tokens apart: the prefix and the first characters. */
export function displayPrefix(token: string): string {
  return token.slice(0, PAT_PREFIX.length + 6);
}
