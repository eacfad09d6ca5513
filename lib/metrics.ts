import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import client, { AggregatorRegistry } from "prom-client";
import type { Logger } from "./logger.ts";

/**
 * The process's Prometheus metrics (METRICS_PORT): HTTP requests per listener and route, GraphQL
 * operations, job queues, webhook deliveries, rate-limit refusals and the database pool, plus
 * Node's own (CPU, memory, event loop, GC). Off until `enableMetrics`: every `record…` is then a
 * no-op, so a process without METRICS_PORT pays nothing for them.
 */
export const registry = new client.Registry();

let enabled = false;

export function enableMetrics(): void {
  if (enabled) return;
  enabled = true;
  client.collectDefaultMetrics({ register: registry, prefix: "platform_" });
  // gauges named *_total, which promtool refuses: the by-type gauges without the suffix sum to them
  for (const total of ["active_handles_total", "active_requests_total", "active_resources_total"]) registry.removeSingleMetric(`platform_nodejs_${total}`);
  if (cluster.isWorker) {
    // WORKERS > 1: the primary serves METRICS_PORT and asks each worker for this registry (startClusterMetricsServer)
    AggregatorRegistry.setRegistries([registry]);
    new AggregatorRegistry();
  }
}

/** A worker of several (WORKERS > 1) leaves METRICS_PORT to the primary, which sums what every worker counts. */
export function servesOwnMetrics(): boolean {
  return !cluster.isWorker;
}

export function metricsEnabled(): boolean {
  return enabled;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A count and a latency histogram over the same labels: `<plural>_total` and `<singular>_duration_seconds`, as Prometheus names them. */
function timedCount<L extends string>(names: { plural: string; singular: string }, what: string, labelNames: readonly L[]) {
  const count = new client.Counter({ name: `${names.plural}_total`, help: `${what}: how many`, labelNames, registers: [registry] });
  const duration = new client.Histogram({ name: `${names.singular}_duration_seconds`, help: `${what}: how long`, labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });
  return (labels: Record<L, string>, seconds: number) => {
    count.inc(labels);
    duration.observe(labels, seconds);
  };
}

const httpRequests = timedCount({ plural: "platform_http_requests", singular: "platform_http_request" }, "HTTP requests answered, by listener, route template, method and status", ["listener", "method", "route", "status"]);

/** `route`: the matched template (`/v0/wallets/:wallet_id`), never the raw path, so ids do not multiply series. */
export function recordHttpRequest(listener: string, method: string, route: string | undefined, status: number, seconds: number): void {
  if (enabled) httpRequests({ listener, method, route: route ?? "unmatched", status: String(status) }, seconds);
}

const graphqlOperations = timedCount({ plural: "platform_graphql_operations", singular: "platform_graphql_operation" }, "GraphQL operations run by the gateway (REST routes included), by operation name, type and outcome", ["operation", "type", "outcome"]);

/** Client-chosen operation names: at most this many distinct ones get a series; the rest count as "other". */
const MAX_OPERATION_NAMES = 500;
const operationNames = new Set<string>();

function operationLabel(name: string | null | undefined): string {
  if (!name) return "anonymous";
  if (operationNames.has(name)) return name;
  if (!/^[A-Za-z_]\w{0,63}$/.test(name) || operationNames.size >= MAX_OPERATION_NAMES) return "other";
  operationNames.add(name);
  return name;
}

export function recordGraphqlOperation(name: string | null | undefined, type: string | undefined, ok: boolean, seconds: number): void {
  if (enabled) graphqlOperations({ operation: operationLabel(name), type: type ?? "unknown", outcome: ok ? "ok" : "error" }, seconds);
}

const jobFailures = new client.Counter({
  name: "platform_job_failures_total",
  help: "Job attempts that failed, by queue (subgraph schema), kind and whether it was the last attempt",
  labelNames: ["queue", "kind", "final"] as const,
  registers: [registry],
});

export function recordJobFailure(queue: string, kind: string, final: boolean): void {
  if (enabled) jobFailures.inc({ queue, kind, final: String(final) });
}

/** Each running job queue reports its rows by kind and status when Prometheus scrapes. */
type DepthSource = () => Promise<{ kind: string; status: string; count: number }[]>;
const depthSources = new Map<string, DepthSource>();

new client.Gauge({
  name: "platform_job_queue_jobs",
  help: "Jobs in each queue by kind and status (queued, running, succeeded, failed)",
  labelNames: ["queue", "kind", "status"] as const,
  registers: [registry],
  // read from the database: every worker of a cluster reports the same rows, so not summed
  aggregator: "max",
  async collect() {
    this.reset();
    for (const [queue, source] of depthSources) {
      // a database outage must not fail the scrape: the queue simply reports nothing this time
      const rows = await source().catch(() => []);
      for (const row of rows) this.set({ queue, kind: row.kind, status: row.status }, row.count);
    }
  },
});

export function registerJobQueue(queue: string, source: DepthSource): () => void {
  depthSources.set(queue, source);
  return () => {
    if (depthSources.get(queue) === source) depthSources.delete(queue);
  };
}

const webhookDeliveries = new client.Counter({
  name: "platform_webhook_deliveries_total",
  help: "Webhook deliveries received, by receiver path and HTTP status answered",
  labelNames: ["receiver", "status"] as const,
  registers: [registry],
});

export function recordWebhookDelivery(receiver: string, status: number): void {
  if (enabled) webhookDeliveries.inc({ receiver, status: String(status) });
}

// Outgoing webhooks (issue 29): the identity service's deliveries to organisations' endpoints
// (platform_webhook_deliveries_total above counts the webhooks this platform receives).
const outgoingAttempts = timedCount(
  { plural: "platform_outgoing_webhook_attempts", singular: "platform_outgoing_webhook_attempt" },
  "Outgoing webhook POSTs, by result: delivered (a 2xx) or failed (any other answer, or none)",
  ["result"],
);
const outgoingAttemptFailures = new client.Counter({
  name: "platform_outgoing_webhook_attempt_failures_total",
  help: "Outgoing webhook POSTs not answered with a 2xx, by answer: 3xx, 4xx, 5xx (the status class), or none (a timeout, a refused address, a network error)",
  labelNames: ["answer"] as const,
  registers: [registry],
});
const outgoingDeliveries = new client.Counter({
  name: "platform_outgoing_webhook_deliveries_total",
  help: "Outgoing webhook deliveries settled, by outcome: delivered, or failed (given up after three days, or its endpoint answered 410)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

/** One attempt of an outgoing webhook: its status code (null when no answer came) and how long it took; `settled`: the delivery's outcome when the attempt ended it. */
export function recordOutgoingWebhookAttempt(statusCode: number | null, seconds: number, settled: "delivered" | "failed" | null): void {
  if (!enabled) return;
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  outgoingAttempts({ result: delivered ? "delivered" : "failed" }, seconds);
  if (!delivered) outgoingAttemptFailures.inc({ answer: statusCode === null ? "none" : `${Math.floor(statusCode / 100)}xx` });
  if (settled) outgoingDeliveries.inc({ outcome: settled });
}

/** The outgoing webhooks' queue: due pending deliveries of enabled endpoints, and the oldest one's due time. */
type WebhookQueueSource = () => Promise<{ due: number; oldest_due_at: Date | null; now: Date }>;
const webhookQueues = new Set<WebhookQueueSource>();

async function webhookQueueStats(): Promise<{ due: number; age: number }> {
  let due = 0;
  let age = 0;
  for (const source of webhookQueues) {
    // a database outage must not fail the scrape: that source reports nothing this time
    const stats = await source().catch(() => undefined);
    if (!stats) continue;
    due += stats.due;
    if (stats.oldest_due_at) age = Math.max(age, (stats.now.getTime() - stats.oldest_due_at.getTime()) / 1000);
  }
  return { due, age };
}

new client.Gauge({
  name: "platform_outgoing_webhook_queue_age_seconds",
  help: "How long the oldest due outgoing webhook delivery (pending, its endpoint enabled) has waited since it fell due; 0 when none waits",
  registers: [registry],
  aggregator: "max",
  async collect() {
    this.set((await webhookQueueStats()).age);
  },
});
new client.Gauge({
  name: "platform_outgoing_webhook_due_deliveries",
  help: "Outgoing webhook deliveries due now (pending, next attempt reached, endpoint enabled), in flight included",
  registers: [registry],
  aggregator: "max",
  async collect() {
    this.set((await webhookQueueStats()).due);
  },
});

export function registerWebhookQueue(source: WebhookQueueSource): () => void {
  webhookQueues.add(source);
  return () => webhookQueues.delete(source);
}

const rateLimitRefusals = new client.Counter({
  name: "platform_rate_limit_refusals_total",
  help: "Requests refused by a rate limit, by rule (user, ip, api_key, auth_failure, rpc, ...)",
  labelNames: ["rule"] as const,
  registers: [registry],
});

export function recordRateLimitRefusal(rule: string): void {
  if (enabled) rateLimitRefusals.inc({ rule });
}

const credentialVerifications = new client.Counter({
  name: "platform_credential_verifications_total",
  help: "Credentials verified (a JWT signature, a key or token lookup), by outcome: verified, expired, failed; attempts refused before verifying are not counted",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export function recordCredentialVerification(outcome: string): void {
  if (enabled) credentialVerifications.inc({ outcome });
}

/** A database's connections, as pg.Pool counts them (PGlite's one connection is counted alike, lib/db/database.ts). */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
const pools = new Set<PoolStats>();

new client.Gauge({
  name: "platform_db_pool_connections",
  help: "Database connections: total open, idle, and queries or transactions waiting for one (PostgreSQL: the pool's, up to 10; PGlite: its one connection)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: "total" }, total);
    this.set({ state: "idle" }, idle);
    this.set({ state: "waiting" }, waiting);
  },
});

export function registerPool(pool: PoolStats): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

/** `GET /metrics` on its own port (plain node:http: nothing of the API's stack in the way of a scrape). */
export async function startMetricsServer(options: { port: number; host: string; logger: Logger }): Promise<{ url: string; close(): Promise<void> }> {
  enableMetrics();
  return serveMetrics(options, () => registry.metrics());
}

/** The primary of WORKERS > 1: `GET /metrics` answers every worker's metrics, counters and histograms summed. */
export async function startClusterMetricsServer(options: { port: number; host: string; logger: Logger }): Promise<{ url: string; close(): Promise<void> }> {
  const aggregator = new AggregatorRegistry();
  return serveMetrics(options, () => aggregator.clusterMetrics());
}

async function serveMetrics(options: { port: number; host: string; logger: Logger }, collect: () => Promise<string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found; metrics are at /metrics\n");
      return;
    }
    collect().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => {
        options.logger.error({ err: error }, "metrics collection failed");
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("metrics collection failed\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${typeof address === "object" && address ? address.port : options.port}/metrics`;
  options.logger.info(`metrics listening on ${url}`);
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
