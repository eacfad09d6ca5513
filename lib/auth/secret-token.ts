import { createHash, randomBytes } from "node:crypto";

/**
 * Secrets we issue (personal access tokens, API keys) look like `<prefix><40 base62 chars><6 char
 * checksum>`: the fixed prefix lets secret scanners spot a leaked one, and the CRC32 checksum lets
 * them (and us) reject typos without a database read. 40 base62 characters are about 238 bits of
 * entropy. Only the SHA-256 hash is ever stored.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;

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

export function generateSecretToken(prefix: string): string {
  // rejection sampling keeps every character uniform
  let body = "";
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${prefix}${body}${base62(crc32(body), CHECKSUM_LENGTH)}`;
}

/** True when the token has one of the prefixes, our length and alphabet, and a matching checksum. */
export function isWellFormedSecretToken(token: string, prefix: string): boolean {
  if (!token.startsWith(prefix) || token.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const rest = token.slice(prefix.length);
  if (![...rest].every((ch) => ALPHABET.includes(ch))) return false;
  return rest.slice(BODY_LENGTH) === base62(crc32(rest.slice(0, BODY_LENGTH)), CHECKSUM_LENGTH);
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
