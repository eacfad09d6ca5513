import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import { SigningKey } from "../lib/auth/signing-key.ts";
import type { Config } from "../lib/config.ts";
import { LISTENING_MESSAGE, READY_MESSAGE } from "../lib/cluster-worker.ts";
import { CardDataCipher } from "../lib/crypto/card-data-cipher.ts";
import { createLogger } from "../lib/logger.ts";
import { startClusterMetricsServer } from "../lib/metrics.ts";
import { stopWhenParentExits } from "../lib/parent-process.ts";
import { announceSandbox } from "../lib/sandbox.ts";

// WORKERS=N (lib/config.ts): the process that `npm start` or `npm run start:<service>` runs becomes
// a primary forking N workers, each running the whole entry point on the same ports (node:cluster
// hands the primary's listening sockets' connections to them in turn). All shared state is in
// PostgreSQL (loadConfig refuses N > 1 without it), so any worker may answer any request.

/** A crashed worker comes back after 1 s, doubling per crash within this window, at most 30 s. */
const CRASH_WINDOW_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** The restart delay after a crash, given how many crashes (this one included) fell within CRASH_WINDOW_MS. */
export function restartDelayMs(recentCrashes: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, 1_000 * 2 ** Math.max(0, recentCrashes - 1));
}

/**
 * What every worker must hold alike: the signing key (tokens one worker signs verify in another)
 * and the card data key. Kept in DATA_DIR, they are made here once, before any worker reads them;
 * with DATA_DIR=memory:// they are made here and handed to the workers' environments.
 */
async function sharedKeys(config: Config): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const inMemory = config.dataDir.startsWith("memory://");
  if (!config.signingKey) {
    if (inMemory) {
      const { privateKey } = await generateKeyPair("ES256", { extractable: true });
      env.SIGNING_KEY = JSON.stringify({ ...(await exportJWK(privateKey)), alg: "ES256" });
    } else await SigningKey.load(undefined, config.dataDir);
  }
  if (!config.cardDataKey) {
    if (inMemory) env.CARD_DATA_KEY = randomBytes(32).toString("base64");
    else CardDataCipher.load(undefined, config.dataDir);
  }
  return env;
}

/**
 * The primary: makes the shared keys, starts one worker alone (it applies the migrations and the
 * start-up writes such as IDENTITY_BOOTSTRAP, so no two workers race on them), then the others;
 * logs the listeners' lines once every worker is up; restarts a worker that dies, with a back-off;
 * on SIGTERM or SIGINT, or once the npm that started it is gone, stops every worker gracefully and
 * exits once they have. A worker that fails during start-up fails the start (its own line says
 * why). METRICS_PORT is served here, summing the workers' metrics.
 */
export async function runPrimary(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel, { component: "primary" });
  announceSandbox(config, logger);
  const env = await sharedKeys(config);
  let metrics: { close(): Promise<void> } | undefined;
  const live = new Set<Worker>();
  const crashes: number[] = [];
  const restarts = new Set<NodeJS.Timeout>();
  let starting = true;
  let stopping = false;

  const fail = (why: string) => {
    process.stderr.write(`start-up failed: ${why}\n`);
    for (const worker of live) worker.process.kill("SIGKILL");
    process.exit(1);
  };

  /** Forks a worker; resolves with its listeners' lines once it is ready. */
  const fork = () =>
    new Promise<string[]>((resolve) => {
      const worker = cluster.fork(env);
      live.add(worker);
      const lines: string[] = [];
      worker.on("message", (message: { type?: string; text?: string }) => {
        if (message?.type === LISTENING_MESSAGE && message.text) lines.push(message.text);
        else if (message?.type === READY_MESSAGE) resolve(lines);
      });
      worker.once("exit", (code, signal) => {
        live.delete(worker);
        if (stopping) return;
        if (starting) return fail(`worker ${worker.process.pid} exited during start-up (${signal ?? `code ${code}`})`);
        const now = Date.now();
        crashes.push(now);
        while (crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
        const delay = restartDelayMs(crashes.length);
        logger.warn({ worker_pid: worker.process.pid, code, signal, restart_in_ms: delay }, "worker exited; starting another");
        const timer = setTimeout(() => {
          restarts.delete(timer);
          void fork().then(() => logger.info({ workers: [...live].map((w) => w.process.pid) }, "worker replaced"));
        }, delay);
        restarts.add(timer);
      });
    });

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      // each worker stops as `npm start` does on SIGTERM (bin/run.ts): in-flight requests finish
      const exits = [...live].map((worker) => new Promise<number | null>((resolve) => (worker.isDead() ? resolve(worker.process.exitCode) : worker.once("exit", (code) => resolve(code)))));
      for (const worker of live) worker.process.kill("SIGTERM");
      const deadline = setTimeout(() => {
        process.stderr.write(`workers took longer than ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS) to stop; exiting\n`);
        for (const worker of live) worker.process.kill("SIGKILL");
        process.exit(1);
      }, config.shutdownTimeoutMs + 1_000);
      deadline.unref();
      const codes = await Promise.all(exits);
      await metrics?.close();
      process.exit(codes.every((code) => code === 0) ? 0 : 1);
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop());
  stopWhenParentExits(() => void stop());

  const lines = await fork();
  await Promise.all(Array.from({ length: config.workers - 1 }, fork));
  starting = false;
  if (stopping) return;
  for (const line of lines) logger.info(line);
  if (config.metricsPort !== undefined) metrics = await startClusterMetricsServer({ port: config.metricsPort, host: config.host, logger });
  logger.info({ workers: [...live].map((worker) => worker.process.pid) }, `${config.workers} workers serving`);
}
