import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort } from "./net.ts";

const ROOT = join(import.meta.dirname, "..", "..");

export interface PlatformProcess {
  child: ChildProcess;
  urls: { platform: string; graphql: string; identity: string; rpc: string };
  /** stdout and stderr so far */
  output(): string;
  /** resolves with the exit code (or signal) once the process has ended */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * What `npm start` runs (the bundle dist/start.js) as its own process on free loopback ports, ready once its four
 * listeners log their URLs. `ports` reuses those of an earlier process (a restart).
 */
export async function spawnPlatform(env: Record<string, string>, ports?: PlatformProcess["urls"]): Promise<PlatformProcess> {
  const port = (url: string | undefined) => (url ? Number(new URL(url).port) : undefined);
  const chosen = {
    PORT: port(ports?.platform) ?? (await freePort()),
    GRAPHQL_PORT: port(ports?.graphql) ?? (await freePort()),
    IDENTITY_PORT: port(ports?.identity) ?? (await freePort()),
    RPC_PORT: port(ports?.rpc) ?? (await freePort()),
  };
  const child = spawn(process.execPath, ["dist/start.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      PUBLIC_BASE_URL: `http://127.0.0.1:${chosen.PORT}`,
      ...Object.fromEntries(Object.entries(chosen).map(([k, v]) => [k, String(v)])),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const urls = {
    platform: `http://127.0.0.1:${chosen.PORT}`,
    graphql: `http://127.0.0.1:${chosen.GRAPHQL_PORT}/graphql`,
    identity: `http://127.0.0.1:${chosen.IDENTITY_PORT}`,
    rpc: `http://127.0.0.1:${chosen.RPC_PORT}`,
  };
  // start-up on a loaded CI machine takes a while
  const deadline = Date.now() + 90_000;
  while ((text.match(/listening on/g) ?? []).length < 4) {
    if (child.exitCode !== null) throw new Error(`the platform exited at start:\n${text}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the platform did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, urls, output: () => text, exited };
}
