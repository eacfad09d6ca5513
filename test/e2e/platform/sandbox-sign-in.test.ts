import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_AUDIENCE, sandboxIssuer } from "../../../lib/auth/sandbox-issuer.ts";
import { SigningKey } from "../../../lib/auth/signing-key.ts";
import { newAccount } from "../../support/registration.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const exec = promisify(execFile);

let platform: TestPlatform;
let dataDir: string;

/** `npm run -s token -- …` as a user runs it: same DATA_DIR and PUBLIC_BASE_URL as the server. */
async function token(...args: string[]): Promise<string> {
  const { stdout } = await exec("npm", ["run", "-s", "token", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PUBLIC_BASE_URL: platform.config.publicBaseUrl, NODE_ENV: "development" },
  });
  return stdout.trim();
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "sandbox-sign-in-"));
  // no external provider at all: the sandbox issuer alone signs users in
  platform = await startTestPlatform({ AUTH_PROVIDERS: "[]", DATA_DIR: dataDir });
});
afterAll(async () => {
  await platform?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("sandbox sign-in (npm run token)", () => {
  it("runs the bundle, as npm start does, not TypeScript through tsx (a third of the time)", async () => {
    const scripts = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.token).toBe("node scripts/run-built.mjs token");
  });

  it("prints a JWT the running platform accepts: a user registers with the wallet it vouches for and reads itself", async () => {
    const account = newAccount();
    const jwt = await token("--sub", "alice", "--wallet", account.address);
    expect(decodeJwt(jwt)).toMatchObject({ iss: sandboxIssuer(platform.config.publicBaseUrl, "provider_a"), sub: "alice", aud: SANDBOX_AUDIENCE });
    const created = await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: account.address, chain_id: 8453 } });
    expect(created.status, await created.clone().text()).toBe(201);
    const me = await platform.api("/v0/user/me", { jwt });
    expect(me.status).toBe(200);
    expect((await me.json()).primary_eoa_address).toBe(account.address);
  }, 60_000);

  it("another provider's alice is another user", async () => {
    const jwt = await token("--sub", "alice", "--provider", "provider_b");
    const me = await platform.api("/v0/user/me", { jwt });
    expect(me.status).toBe(404);
    expect((await me.json()).error_code).toBe("USR-404-001");
  }, 60_000);

  it("refuses bad arguments with one line and no token", async () => {
    for (const args of [[], ["--sub", "a", "--provider", "siwe"], ["--sub", "a", "--wallet", "0x123"], ["--sub", "a", "--expires-in", "-5"]]) {
      const failed = await token(...args).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code, args.join(" ")).toBe(1);
      expect(failed?.stdout).toBe("");
      expect(failed?.stderr.trim().split("\n")).toHaveLength(1);
    }
  }, 60_000);

  it("accepts only tokens made for the sandbox: the audience is required, and another key's signature fails", async () => {
    const issuer = sandboxIssuer(platform.config.publicBaseUrl, "provider_a");
    const serverKey = await SigningKey.load(undefined, dataDir);
    const noAudience = await serverKey.sign({}, { issuer, subject: "alice", expiresInSeconds: 600 });
    const otherKey = await SigningKey.load(undefined, "memory://");
    const forged = await otherKey.sign({}, { issuer, subject: "alice", audience: SANDBOX_AUDIENCE, expiresInSeconds: 600 });
    for (const jwt of [noAudience, forged]) {
      const me = await platform.api("/v0/user/me", { jwt });
      expect(me.status).toBe(401);
      expect((await me.json()).error_code).toBe("USR-401-001");
    }
  });
});
