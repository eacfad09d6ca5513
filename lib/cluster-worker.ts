import cluster from "node:cluster";

// A worker's side of WORKERS > 1 (server/workers.ts runs the primary): what it tells the primary.

export const LISTENING_MESSAGE = "platform:listening";
export const READY_MESSAGE = "platform:ready";

/** In a worker, a listener's "listening on" line goes to the primary, which logs it once for all workers. */
export function reportListening(text: string): void {
  if (cluster.isWorker) process.send!({ type: LISTENING_MESSAGE, text });
}

/** In a worker: every listener is up (bin/run.ts, once the entry point has started). */
export function reportReady(): void {
  if (cluster.isWorker) process.send!({ type: READY_MESSAGE });
}
