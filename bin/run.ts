import { ConfigError } from "../lib/config.ts";
import { MigrationError } from "../lib/db/migrations.ts";

/**
 * Runs an entry point: configuration and migration problems print one line and exit 1 (no
 * stack trace); SIGINT/SIGTERM stop gracefully.
 */
export async function run(main: () => Promise<{ stop(): Promise<void>; shutdownTimeoutMs?: number }>): Promise<void> {
  let running: { stop(): Promise<void>; shutdownTimeoutMs?: number };
  try {
    running = await main();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof MigrationError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`start-up failed: ${message}\n`);
    process.exit(1);
  }
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
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
    });
  }
}
