import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../support/net.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function run(env: Record<string, string>, until: (out: string) => boolean, timeoutMs = 60_000) {
  const child = spawn(process.execPath, ["dist/start.js"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  return new Promise<{ stdout: string; stderr: string; code: number | null; output: () => string; stop: () => Promise<number | null> }>((resolve, reject) => {
    const output = () => stdout;
    const timer = setTimeout(() => reject(new Error(`timed out:\n${stdout}\n${stderr}`)), timeoutMs);
    const stop = () => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : (child.once("exit", (code) => r(code)), child.kill("SIGTERM"))));
    const check = () => {
      if (until(stdout)) {
        clearTimeout(timer);
        resolve({ stdout, stderr, code: child.exitCode, output, stop });
      }
    };
    child.stdout.on("data", (chunk) => ((stdout += chunk), check()));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, output, stop });
    });
  });
}

describe("npm start (dist/start.js, the bundle of bin/start.ts)", () => {
  it("starts the four listeners (on PGlite, or PostgreSQL with DATABASE_URL) and logs one line per listener with its URL", async () => {
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    const databaseUrl = await freshDatabaseUrl();
    const started = await run({ DATA_DIR: "memory://", ...(databaseUrl && { DATABASE_URL: databaseUrl }), ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) }, (out) => out.split("\n").filter((l) => l.includes("listening on")).length === 4);
    try {
      const lines = started.stdout.split("\n").filter((l) => l.includes("listening on")).map((l) => JSON.parse(l).msg);
      expect(lines).toEqual([
        `platform listening on http://127.0.0.1:${ports.PORT}`,
        `graphql listening on http://127.0.0.1:${ports.GRAPHQL_PORT}/graphql`,
        `identity listening on http://127.0.0.1:${ports.IDENTITY_PORT}`,
        `rpc listening on http://127.0.0.1:${ports.RPC_PORT}`,
      ]);
      expect((await fetch(`http://127.0.0.1:${ports.PORT}/health`)).status).toBe(200);
      const identity404 = await fetch(`http://127.0.0.1:${ports.IDENTITY_PORT}/v0/nothing-here`);
      expect(identity404.status).toBe(404);
      expect(await identity404.json()).toMatchObject({ error_code: "GEN-404-001" });

      // one JSON line per request, with the trace id, status and duration
      await fetch(`http://127.0.0.1:${ports.PORT}/v0/user/me`, { headers: { "x-request-id": "trace-for-the-log" } });
      await new Promise((r) => setTimeout(r, 200));
      const request = started
        .output()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((l) => l.trace_id === "trace-for-the-log");
      expect(request).toMatchObject({ msg: "request", method: "GET", path: "/v0/user/me", status: 401, duration_ms: expect.any(Number) });
    } finally {
      await started.stop();
    }
  });

  it("stops at once on SIGTERM outside the test environment, not at the drain bound, exiting 0", async () => {
    // Apollo Server listens for the termination signals itself unless NODE_ENV is "test"; its
    // handlers used to hold the graceful stop until SHUTDOWN_TIMEOUT_MS and exit 1
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    // a drain bound far above the stop's own time: held until the bound, the stop would take 60 s
    const env = { NODE_ENV: "development", DATA_DIR: "memory://", LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_MS: "60000", ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const started = await run(env, (out) => out.split("\n").filter((l) => l.includes("listening on")).length === 4);
    const signalled = performance.now();
    expect(await started.stop()).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(15_000);
  });

  it("loads none of Node's deprecated modules: punycode comes from npm, so Node 22 and later print no DEP0040 at start", async () => {
    // Node 20 warns of it only with --pending-deprecation; 22 and later at every start
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    const env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --pending-deprecation`, DATA_DIR: "memory://", ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const started = await run(env, (out) => out.split("\n").filter((l) => l.includes("listening on")).length === 4);
    expect(await started.stop()).toBe(0);
    expect(started.stderr).not.toContain("DEP0040");
  });

  it("loads none of what it never runs: the other database's driver, Apollo Gateway's usage reporting conventions and remote fetcher", async () => {
    // Node's own debug log names every module file it loads, CommonJS (module) and ES modules (esm)
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    const databaseUrl = await freshDatabaseUrl();
    const env = { NODE_DEBUG: "module,esm", DATA_DIR: "memory://", ...(databaseUrl && { DATABASE_URL: databaseUrl }), ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const started = await run(env, (out) => out.split("\n").filter((l) => l.includes("listening on")).length === 4);
    expect(await started.stop()).toBe(0);
    const loaded = started.stderr;
    // what the log must name, so that what it must not name is a finding: the database's driver, and
    // a package the bundled gateway requires at load as it would those below were they not deferred
    expect(loaded).toContain(databaseUrl ? "node_modules/pg/lib/index.js" : "@electric-sql/pglite");
    expect(loaded).toContain("@opentelemetry/api");
    if (databaseUrl) expect(loaded).not.toContain("@electric-sql/pglite");
    // scripts/build.mjs defers them until the gateway first uses them, which it does not here
    expect(loaded).not.toContain("make-fetch-happen");
    expect(loaded).not.toContain("semantic-conventions/incubating");
  });

  it("stops on bad configuration with one line naming the variable", async () => {
    const result = await run({ DATA_DIR: "memory://", PORT: "eighty" }, () => false);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").filter((l) => !l.includes("npm warn"))).toEqual(['configuration error: PORT: expected a TCP port (0-65535), got "eighty"']);
    const providers = await run({ DATA_DIR: "memory://", AUTH_PROVIDERS: "[{" }, () => false);
    expect(providers.code).toBe(1);
    expect(providers.stderr).toContain("configuration error: AUTH_PROVIDERS: is not valid JSON");
  });
});
