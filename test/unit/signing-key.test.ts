import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SigningKey } from "../../lib/auth/signing-key.ts";
import { ConfigError } from "../../lib/config-error.ts";

describe("SigningKey.load from DATA_DIR", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "signing-key-"));
    dirs.push(dir);
    return dir;
  };

  it("generates the key once, owner-only, and loads the same key afterwards", async () => {
    const dir = dataDir();
    const first = await SigningKey.load(undefined, dir);
    expect(statSync(join(dir, "signing-key.json")).mode & 0o777).toBe(0o600);
    expect((await SigningKey.load(undefined, dir)).kid).toBe(first.kid);
  });

  it.skipIf(process.platform === "win32")("refuses a key file other users may read, naming the file and the fix", async () => {
    const dir = dataDir();
    await SigningKey.load(undefined, dir);
    chmodSync(join(dir, "signing-key.json"), 0o644);
    const refused = await SigningKey.load(undefined, dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toMatch(/signing-key\.json is readable by other users \(mode 644\).*chmod 600/);
  });
});
