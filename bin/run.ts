import cluster from "node:cluster";
import { reportReady } from "../lib/cluster-worker.ts";
import { ConfigError, loadConfig, type Config } from "../lib/config.ts";
import { MigrationError } from "../lib/db/migrations.ts";
import { applyHeapGrowth } from "../lib/heap-growth.ts";
import { stopWhenParentExits } from "../lib/parent-process.ts";
import { runPrimary } from "../server/workers.ts";

/**
 * Runs an entry point: configuration and migration problems print one line and exit 1 (no
 * stack trace); SIGINT/SIGTERM stop gracefully, and so does the end of the npm that started it
 * (lib/parent-process.ts). With WORKERS > 1 this process is the primary (server/workers.ts) and
 * each of its workers runs `main`.
 */
export async function run(main: (config: Config) => Promise<{ stop(): Promise<void>; shutdownTimeoutMs?: number }>, load: () => Config = () => loadConfig()): Promise<void> {
  let running: { stop(): Promise<void>; shutdownTimeoutMs?: number };
  try {
    const config = load();
    applyHeapGrowth(config.heapGrowingPercent);
    if (config.workers > 1 && cluster.isPrimary) return await runPrimary(config);
    running = await main(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof MigrationError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`start-up failed: ${message}\n`);
    process.exit(1);
  }
  reportReady();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // in-flight requests get until the deadline to finish; then the process goes regardless
    const deadline = running.shutdownTimeoutMs ?? 15_000;
    setTimeout(() => {
      process.stderr.write(`shutdown took longer than ${deadline} ms (SHUTDOWN_TIMEOUT_MS); exiting\n`);
      process.exit(1);
    }, deadline).unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, stop);
  // a worker whose primary is gone (killed) stops too, rather than serving on unsupervised
  if (cluster.isWorker) process.on("disconnect", stop);
  else stopWhenParentExits(stop);
}
