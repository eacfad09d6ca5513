import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../support/net.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Stopping the server as the README starts it (`npm start &`, then `kill <npm's pid>`): npm passes
// SIGTERM to the shell it runs the script in, which (dash) does not pass it on, so node must notice
// by itself that npm is gone (lib/parent-process.ts; issue 32).
const ROOT = join(import.meta.dirname, "..", "..", "..");
/** node notices within a second that npm's shell is gone, then stops as on SIGTERM (a second or two). */
const STOP_WITHIN_MS = 10_000;
const started: ChildProcess[] = [];
const leftovers = new Set<number>();
afterAll(() => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, "SIGKILL");
  for (const npm of started) if (npm.exitCode === null) npm.kill("SIGKILL");
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `pid`: npm's shell, node, and with WORKERS > 1 its workers. */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** A port nothing listens on refuses the connection. */
async function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
}

/**
 * `npm <args>` with `env`, once `ready(output)`; its output is npm's and the script's. With `input`,
 * stdin is a pipe that holds it and stays open until `closeStdin()`: it comes from a process of its
 * own, since Node closes a child's stdin pipe when the child (here npm) exits.
 */
async function npm(args: string[], env: Record<string, string>, ready: (output: string) => boolean, input?: string) {
  const feeder = input === undefined ? undefined : spawn("sh", ["-c", 'printf "%s" "$INPUT"; exec sleep 300'], { env: { PATH: process.env.PATH, INPUT: input }, stdio: ["ignore", "pipe", "ignore"] });
  if (feeder) leftovers.add(feeder.pid!);
  const child = spawn("npm", args, { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: [feeder?.stdout ?? "ignore", "pipe", "pipe"] });
  feeder?.stdout!.destroy();
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  // start-up on a loaded machine takes a while
  for (const deadline = Date.now() + 90_000; !ready(output); await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`npm ${args.join(" ")} exited at start:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm ${args.join(" ")} did not start:\n${output}`);
  }
  const below = descendants(child.pid!);
  for (const pid of below) leftovers.add(pid);
  return { child, below, output: () => output, closeStdin: () => feeder?.kill() };
}

/** SIGTERM to npm's pid alone; resolves once npm and every process it started are gone and none of `ports` listens. */
async function stopNpm(started: Awaited<ReturnType<typeof npm>>, ports: number[]): Promise<void> {
  const signalled = performance.now();
  process.kill(started.child.pid!, "SIGTERM");
  const processes = [started.child.pid!, ...started.below];
  for (;;) {
    const open = (await Promise.all(ports.map(async (port) => ((await listening(port)) ? [port] : [])))).flat();
    if (open.length === 0 && !processes.some(alive)) return;
    if (performance.now() - signalled > STOP_WITHIN_MS) {
      throw new Error(`${STOP_WITHIN_MS} ms after SIGTERM to npm, still running: ${processes.filter(alive).join(", ")}; still listening: ${open.join(", ")}\n${started.output()}`);
    }
    await sleep(50);
  }
}

const listeners = (count: number) => (output: string) => (output.match(/listening on/g) ?? []).length >= count;

describe("stopping npm by its pid stops the server it started", () => {
  it("npm start: node exits and its four ports are free", async () => {
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    const databaseUrl = await freshDatabaseUrl();
    const env = { DATA_DIR: "memory://", ...(databaseUrl && { DATABASE_URL: databaseUrl }), ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const server = await npm(["start"], env, listeners(4));
    // npm runs the script through a shell: npm, then sh, then node (bash would exec node instead)
    expect(server.below.length).toBeGreaterThanOrEqual(1);
    for (const port of Object.values(ports)) expect(await listening(port)).toBe(true);
    await stopNpm(server, Object.values(ports));
  });

  it("npm run start:users (split mode): the service exits and its port is free", async () => {
    const port = await freePort();
    const databaseUrl = await freshDatabaseUrl();
    const env = { SUBGRAPH_PORT: String(port), DATA_DIR: "memory://", ...(databaseUrl && { DATABASE_URL: databaseUrl }), INTERNAL_SECRET: randomBytes(32).toString("hex"), HOST: "127.0.0.1" };
    const service = await npm(["run", "start:users"], env, listeners(1));
    expect(await listening(port)).toBe(true);
    await stopNpm(service, [port]);
  });

  it.skipIf(!onPostgres)("npm start with WORKERS=2: the primary stops both workers and the ports are free", { timeout: 180_000 }, async () => {
    const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
    const env = { DATABASE_URL: (await freshDatabaseUrl())!, DATA_DIR: "memory://", WORKERS: "2", ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const server = await npm(["start"], env, (output) => output.includes('"msg":"2 workers serving"'));
    // sh, the primary and its two workers
    expect(server.below.length).toBeGreaterThanOrEqual(3);
    await stopNpm(server, Object.values(ports));
  });

  it("npm run mcp: the stdio relay exits though its stdin stays open, and still exits when stdin closes", async () => {
    const env = { PLATFORM_AGENT_TOKEN: "unused: initialize is answered without the platform", PLATFORM_URL: `http://127.0.0.1:${await freePort()}` };
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "npm-stop", version: "1" } } };
    // the relay answers initialize itself, so it is up once the answer is out
    const relay = () => npm(["run", "--silent", "mcp"], env, (output) => output.includes('"protocolVersion"'), `${JSON.stringify(initialize)}\n`);

    const open = await relay();
    expect(open.below.length).toBeGreaterThanOrEqual(1);
    await stopNpm(open, []);

    const closed = await relay();
    closed.closeStdin();
    const processes = [closed.child.pid!, ...closed.below];
    for (const closedAt = performance.now(); processes.some(alive); await sleep(50)) {
      if (performance.now() - closedAt > STOP_WITHIN_MS) throw new Error(`still running after stdin closed:\n${closed.output()}`);
    }
  });
});
