import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * A prefixed, time-ordered identifier (`usr_01j…`): 48 bits of milliseconds then 80 random bits,
 * Crockford base32 like ULID, so new rows land at the end of the primary-key index.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let random = "";
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      random += CROCKFORD[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${time}${random}`;
}
