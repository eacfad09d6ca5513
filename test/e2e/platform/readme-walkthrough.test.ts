import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPlatform, type PlatformProcess } from "../../support/platform-process.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 32: the README's walkthrough runs top to bottom as a person pastes it. This test takes the
// shell block after the README's `<!-- readme-walkthrough` marker, runs it against a fresh server
// on loopback and checks what each step printed.
const ROOT = join(import.meta.dirname, "..", "..", "..");
const MARKER = "<!-- readme-walkthrough";
const START_LINE = "npm start &";

/** The lines of the first ```sh block after the marker. */
async function walkthrough(): Promise<string[]> {
  const lines = (await readFile(join(ROOT, "README.md"), "utf8")).split("\n");
  const marker = lines.findIndex((line) => line.startsWith(MARKER));
  if (marker < 0) throw new Error(`README.md has no ${MARKER} marker`);
  const open = lines.indexOf("```sh", marker);
  const close = lines.indexOf("```", open + 1);
  if (open < 0 || close < 0) throw new Error("README.md has no ```sh block after the walkthrough marker");
  return lines.slice(open + 1, close);
}

let platform: PlatformProcess;
let dataDir: string;

beforeAll(async () => {
  // a data directory on disk, like npm start's ./data: `npm run -s token` signs with the key the
  // server keeps there (memory:// would keep it in the server alone)
  dataDir = await mkdtemp(join(tmpdir(), "readme-walkthrough-"));
  const databaseUrl = await freshDatabaseUrl();
  // what `npm start` runs, on free loopback ports; no load shedding, the machine is shared with other tests
  platform = await spawnPlatform({ DATA_DIR: dataDir, LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: "0", ...(databaseUrl && { DATABASE_URL: databaseUrl }) });
});

afterAll(async () => {
  if (platform && platform.child.exitCode === null) {
    platform.child.kill("SIGTERM");
    await platform.exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the README walkthrough", () => {
  it("runs as pasted: registration, money, KYC approved, an on-ramp settled, and the low-balance alert in the notifications", { timeout: 180_000 }, async () => {
    const lines = await walkthrough();
    // the server is this test's (free ports, a fresh data directory), in place of the block's own first line
    expect(lines[0]).toBe(START_LINE);
    const script = lines.slice(1).join("\n");

    // The block has no `set -e`: pasted into an interactive shell it would close the terminal at
    // the first failing command. The test adds it (and -u, pipefail) from outside, so a command that
    // fails, an unset variable or a failing pipe stops the run; an HTTP error curl prints as it is,
    // caught by the checks on the output below.
    const env = { ...process.env, API: platform.urls.platform, PUBLIC_BASE_URL: platform.urls.platform, DATA_DIR: dataDir };
    const run = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], { cwd: ROOT, env, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: Error & { stdout?: string; stderr?: string }) => {
        throw new Error(`the walkthrough failed: ${error.message}\nstdout:\n${error.stdout}\nstderr:\n${error.stderr}\nserver:\n${platform.output().slice(-4000)}`);
      },
    );
    // curl prints each answer without a newline: jq splits the stream into one JSON value a line
    const printed = execFileSync("jq", ["-c", "."], { input: run.stdout, encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const context = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

    // no step answered a problem (RFC 7807 with the catalogue's error_code)
    expect(printed.filter((value) => "error_code" in value), context).toEqual([]);
    const payment = { type: "transfer", direction: "out", status: "completed", amount: "15.99", merchant: { name: "Netflix" } };
    // one entry per line that prints, in the README's order
    expect(printed, context).toMatchObject([
      { status: "ok" },
      { status: "pending", primary_eoa_address: "0x52908400098527886E0F7030069857D2E4169EE7" },
      { wallets: expect.arrayContaining([expect.objectContaining({ type: "Safe", chain_id: 8453 })]) },
      { type: "deposit", status: "completed", amount: "500" },
      payment,
      payment,
      payment,
      { items: expect.arrayContaining([expect.objectContaining({ type: "deposit" })]), meta: expect.any(Object) },
      { items: expect.any(Array) },
      // KYC: the applicant, the documents submitted, the sandbox provider's GREEN delivered
      { token: expect.any(String), applicant_id: expect.any(String) },
      { status: "in_progress" },
      { answer: "GREEN", webhook_status: 200, status: "approved" },
      // the linked bank's synced history
      { items: expect.arrayContaining([expect.objectContaining({ bank_account_id: expect.stringMatching(/^bnk_/) })]) },
      // the on-ramp settled: the provider's ramp.completed accepted
      { webhook_status: 200, outcome: "completed" },
      { strategy: { id: "stg_low_balance_alert" }, status: "enabled" },
      { direction: "off", asset_amount: "520", status: "processing" },
      // the alert, once the off-ramp took the wallet below 50
      { source: "stg_low_balance_alert", title: "Low USDC balance", data: { threshold: "50" } },
    ]);
  });
});
