import "reflect-metadata";
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import Fastify from "fastify";
import { loadConfig } from "../lib/config.ts";
import { applyHeapGrowth } from "../lib/heap-growth.ts";
import { createLogger } from "../lib/logger.ts";
import { startSingleProcess } from "../server/single-process.ts";
import { findUser } from "../subgraphs/users/user/user-queries.ts";
import type { UsersServices } from "../subgraphs/users/services.ts";
import { feedSeedStatements, type FeedSeed } from "../test/support/feed-seed.ts";
import { gatewayComparisonRoutes } from "./gateways.ts";

// The platform as `npm start` runs it, plus a baseline listener that reads the same rows with
// Prisma directly (no adapter, gateway or GraphQL), runs an operation through either of two
// federation executors (bench/gateways.ts), answers the process's memory for the report, and
// seeds the feed case (the child owns the database: PGlite lives in its memory).
// the heap's growth too, as bin/run.ts sets it (BENCH_NODE_FLAGS=--heap-growing-percent=… overrides it)
const config = loadConfig();
applyHeapGrowth(config.heapGrowingPercent);
const platform = await startSingleProcess(config, { logger: createLogger("silent") });
const { db } = (platform.subgraphs.users as unknown as { services: UsersServices }).services;

// BENCH_HEAP_SAMPLING=<file>: V8's sampling heap profile of what the loads allocated that outlived
// a scavenge (promoted to the old generation, or still live at the end; BENCH_HEAP_ALL=1: all they
// allocated, scavenged or not, where a request's allocation comes from), from the end of the
// seeding to the exit, written as JSON (Chrome DevTools opens it as a .heapprofile)
const heapSampling = process.env.BENCH_HEAP_SAMPLING ? new Session() : undefined;
heapSampling?.connect();
const baseline = Fastify();
baseline.get("/baseline/:id", async (request) => {
  const user = await findUser(db, (request.params as { id: string }).id);
  return { ...user, created_at: user!.created_at.getTime(), updated_at: user!.updated_at.getTime() };
});
// the collections so far, by kind, with their total and longest pause: how often a load made V8
// scavenge the young generation and collect the old one (a major collection's marking runs mostly
// beside the main thread; its duration here is the pause that finishes it)
const collections = { minor: { count: 0, ms: 0, longest_ms: 0 }, major: { count: 0, ms: 0, longest_ms: 0 } };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { kind } = (entry as PerformanceEntry & { detail: { kind: number } }).detail;
    const counted = kind === constants.NODE_PERFORMANCE_GC_MINOR ? collections.minor : kind === constants.NODE_PERFORMANCE_GC_MAJOR ? collections.major : undefined;
    if (!counted) continue;
    counted.count++;
    counted.ms += entry.duration;
    counted.longest_ms = Math.max(counted.longest_ms, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });
baseline.get("/memory", async () => {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  // what the RSS is made of: V8's heap by space (the young generation is new_space), and what
  // lives outside it (Buffers, WebAssembly memories)
  const statistics = getHeapSpaceStatistics();
  const spaces = Object.fromEntries(statistics.map((s) => [s.space_name, s.space_size]));
  // what each space holds (live objects and the garbage not yet collected)
  const spaces_used = Object.fromEntries(statistics.map((s) => [s.space_name, s.space_used_size]));
  // the RSS split (Linux): file-backed pages (the node binary's code and data) and anonymous ones
  // (V8's heap, malloc's arenas, thread stacks)
  const status = readFileSync("/proc/self/status", "utf8");
  const statusBytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  // maxRSS: the highest RSS so far (the load's peak, where the end of it may fall after a collection)
  return { rss, rss_anon: statusBytes("RssAnon"), rss_file: statusBytes("RssFile"), heap_used: heapUsed, heap_total: heapTotal, external, array_buffers: arrayBuffers, spaces, spaces_used, max_rss: process.resourceUsage().maxRSS * 1024, collections };
});
baseline.post("/seed-feed", async (request) => {
  const started = performance.now();
  // in one transaction, as the history import it is: run one by one, the rows' outbox events
  // committed undelivered before the last statement marked them delivered, and the ledger-event
  // consumer (woken by their NOTIFY) applied some 2,000 of them meanwhile, its garbage growing the
  // measured process's old space by 20 to 100 MiB (README, Memory under load, sixth round)
  await platform.database.transaction(async (tx) => {
    for (const statement of feedSeedStatements(request.body as FeedSeed)) await tx.exec(statement);
  });
  // as autovacuum would leave a table at rest: statistics and the visibility map (index-only scans)
  await platform.database.exec(`VACUUM ANALYZE "finance"."transactions"`);
  await platform.database.exec(`VACUUM ANALYZE "finance"."transaction_status_history"`);
  await platform.database.exec(`VACUUM ANALYZE "finance"."transaction_rollups"`);
  await heapSampling?.post("HeapProfiler.startSampling", { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.BENCH_HEAP_ALL === "1" });
  return { kind: platform.database.kind, ms: performance.now() - started };
});
gatewayComparisonRoutes(baseline, platform);
await baseline.listen({ port: 0, host: "127.0.0.1" });
const address = baseline.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ platform: platform.urls.platform, graphql: platform.urls.graphql, baseline: `http://127.0.0.1:${address.port}` })}\n`);
// a clean exit on SIGTERM, so a CPU profile (BENCH_CPU_PROF) and a heap profile are written
process.once("SIGTERM", async () => {
  if (heapSampling) writeFileSync(process.env.BENCH_HEAP_SAMPLING!, JSON.stringify((await heapSampling.post("HeapProfiler.stopSampling")).profile));
  process.exit(0);
});
