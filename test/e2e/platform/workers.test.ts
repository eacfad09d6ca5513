import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signSandboxToken } from "../../../lib/auth/sandbox-issuer.ts";
import { SigningKey } from "../../../lib/auth/signing-key.ts";
import { spawnPlatform, type PlatformProcess } from "../../support/platform-process.ts";
import { newAccount } from "../../support/registration.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// WORKERS=2 (server/workers.ts): `npm start` as a primary and two workers on the same ports.
const ROOT = join(import.meta.dirname, "..", "..", "..");
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The primary's children: its workers. */
function workerPids(primary: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(primary)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number).sort();
  } catch {
    return [];
  }
}

/** A request on a connection of its own (the cluster hands each new connection to the next worker), answered with its status and body. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers, timeout: 10_000 }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} in 10 s`)));
    req.end();
  });
}

/** The pid of the worker that logged the request with this trace id. */
async function answeredBy(platform: PlatformProcess, traceId: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const line = platform
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { trace_id?: string; msg?: string; pid?: number })
      .find((l) => l.trace_id === traceId && l.msg === "request");
    if (line) return line.pid!;
    await sleep(20);
  }
  throw new Error(`no request line for ${traceId}`);
}

describe("WORKERS=2", () => {
  it("is refused on the embedded PGlite with one line naming the variable", async () => {
    const child = spawn(process.execPath, ["dist/start.js"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "memory://", WORKERS: "2" }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe("configuration error: WORKERS: 2 workers need DATABASE_URL (PostgreSQL): the embedded PGlite database belongs to one process");
  });

  it.skipIf(!onPostgres)("serves from both workers, replaces a killed one, and stops on SIGTERM freeing the ports", { timeout: 180_000 }, async () => {
    const databaseUrl = (await freshDatabaseUrl())!;
    const dataDir = await mkdtemp(join(tmpdir(), "workers-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const platform = await spawnPlatform({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WORKERS: "2", AUTH_PROVIDERS: "[]" });
    cleanups.push(async () => {
      for (const pid of workerPids(platform.child.pid!)) process.kill(pid, "SIGKILL");
      if (platform.child.exitCode === null) platform.child.kill("SIGKILL");
    });
    // the four listeners are announced once, by the primary, after both workers started
    const output = platform.output();
    expect((output.match(/listening on/g) ?? []).length).toBe(4);
    expect(output).toContain('"msg":"2 workers serving"');
    const workers = workerPids(platform.child.pid!);
    expect(workers).toHaveLength(2);

    // a user registered through one worker is read back through the other: both verify with the
    // signing key the primary made in DATA_DIR before forking them; the data is in PostgreSQL
    const account = newAccount();
    const key = await SigningKey.fromJwk(JSON.parse(await readFile(join(dataDir, "signing-key.json"), "utf8")));
    const jwt = await signSandboxToken(key, platform.urls.platform, { sub: "workers-user", wallet: account.address });
    const registered = await fetch(`${platform.urls.platform}/v0/user/`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt, "x-request-id": "workers-register" }, body: JSON.stringify({ primary_eoa_address: account.address, chain_id: 8453 }) });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const userId = ((await registered.json()) as { id: string }).id;
    const registeredBy = await answeredBy(platform, "workers-register");
    const readers = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const me = await get(`${platform.urls.platform}/v0/user/me`, { "x-platform-jwt": jwt, "x-request-id": `workers-read-${i}` });
      expect(me.status, me.body).toBe(200);
      expect(JSON.parse(me.body)).toMatchObject({ id: userId });
      readers.add(await answeredBy(platform, `workers-read-${i}`));
    }
    expect([...readers].sort()).toEqual(workers);
    expect(readers.has(registeredBy) && readers.size === 2).toBe(true);

    // SIGKILL one worker: the other answers meanwhile, and a new worker takes its place
    const [killed, survivor] = workers as [number, number];
    process.kill(killed, "SIGKILL");
    // (a connection the primary hands to a worker in the instant it dies, before the primary has
    // seen it exit, is lost with it: Node's cluster does not hand it to another)
    for (const until = Date.now() + 10_000; !platform.output().includes('"msg":"worker exited; starting another"') && Date.now() < until; ) await sleep(20);
    for (let i = 0; i < 4; i++) expect((await get(`${platform.urls.platform}/health`)).status).toBe(200);
    let replaced: number[] = [];
    for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
      replaced = workerPids(platform.child.pid!);
      if (replaced.length === 2 && !replaced.includes(killed) && platform.output().includes('"msg":"worker replaced"')) break;
    }
    expect(replaced).toHaveLength(2);
    expect(replaced).toContain(survivor);
    expect(replaced).not.toContain(killed);
    const after = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const me = await get(`${platform.urls.platform}/v0/user/me`, { "x-platform-jwt": jwt, "x-request-id": `workers-after-${i}` });
      expect(me.status, me.body).toBe(200);
      after.add(await answeredBy(platform, `workers-after-${i}`));
    }
    expect([...after].sort()).toEqual(replaced);

    // SIGTERM to the primary: every worker stops gracefully, the primary exits 0, the ports are free
    platform.child.kill("SIGTERM");
    expect(await platform.exited).toEqual({ code: 0, signal: null });
    expect(workerPids(platform.child.pid!)).toEqual([]);
    for (const pid of replaced) expect(() => process.kill(pid, 0)).toThrow();
    for (const url of Object.values(platform.urls)) await expect(fetch(url)).rejects.toThrow();
  });
});
