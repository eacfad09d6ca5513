import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * Split-mode services as plain processes on loopback (`dist/service.js <name>`), each with the
 * environment every one needs here (the shared INTERNAL_SECRET, loopback, the test issuer's JWKS
 * over http) and its own; what they print is kept for the message of a service that does not
 * come up.
 */
export class ServiceProcesses {
  /** in the order started */
  readonly children: ChildProcess[] = [];
  private readonly output: string[] = [];
  private readonly common: Record<string, string>;

  /** `env`: more for every service; `upWithinMs`: how long `waitFor` waits by default */
  constructor(
    internalSecret: string,
    env: Record<string, string> = {},
    private readonly upWithinMs = 150_000,
  ) {
    this.common = { LOG_LEVEL: "warn", INTERNAL_SECRET: internalSecret, HOST: "127.0.0.1", JWKS_ALLOW_LOOPBACK_HTTP: "true", ...env };
  }

  start(name: string, env: Record<string, string>): void {
    const child = spawn(process.execPath, ["dist/service.js", name], { cwd: ROOT, env: { ...process.env, ...this.common, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (chunk) => this.output.push(`[${name}] ${chunk}`));
    child.stderr!.on("data", (chunk) => this.output.push(`[${name}] ${chunk}`));
    this.children.push(child);
  }

  /** Until `url` answers 2xx, or fails with what the services printed. */
  async waitFor(url: string, timeoutMs = this.upWithinMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(url)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${url} did not come up:\n${this.output.join("")}`);
  }

  /** SIGTERM to every one, and their exits. */
  async stop(): Promise<void> {
    for (const child of this.children) child.kill("SIGTERM");
    await Promise.all(this.children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)))));
  }
}
