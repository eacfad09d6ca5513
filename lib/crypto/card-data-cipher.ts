import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPrivateFile } from "../private-file.ts";

const VERSION = "v1";
const KEY_FILE = "card-data-key";

/**
 * Seals card numbers and CVVs at rest: AES-256-GCM with a fresh 96-bit IV per value, written as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), so a tampered or foreign value fails to open rather
 * than decrypting to garbage. The key is CARD_DATA_KEY, else generated once into DATA_DIR.
 */
export class CardDataCipher {
  private constructor(private readonly key: Buffer) {}

  /** `configured` (32 bytes) when given; else the key in DATA_DIR, generated on first use (memory://: per process). */
  static load(configured: Buffer | undefined, dataDir: string): CardDataCipher {
    if (configured) return new CardDataCipher(configured);
    const file = dataDir.startsWith("memory://") ? undefined : join(dataDir, KEY_FILE);
    const stored = file ? readPrivateFile(file, "CARD_DATA_KEY") : undefined;
    if (stored !== undefined) return new CardDataCipher(Buffer.from(stored.trim(), "base64"));
    const key = randomBytes(32);
    if (file) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, key.toString("base64"), { mode: 0o600 });
    }
    return new CardDataCipher(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("not a sealed card value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  }
}
