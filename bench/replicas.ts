import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import pg from "pg";
import { SUBGRAPHS } from "../lib/graphql/subgraph-registry.ts";
import { TestIssuer } from "../test/support/jwt-issuer.ts";
import { freePort } from "../test/support/net.ts";
import { startPostgresCluster, type PostgresCluster } from "../test/support/postgres.ts";
import { registrationBody } from "../test/support/registration.ts";
import { ServiceProcesses } from "../test/support/service-processes.ts";
import { benchPlatformEnv } from "./server-env.ts";
// @ts-expect-error: a plain JavaScript module (it runs before anything is compiled)
import { build, isStale } from "../scripts/build.mjs";

/**
 * `npm run bench:replicas` (issue 31): the user path (`GET /v0/user/me`: adapter, gateway, users
 * subgraph) in split mode, every service its own process (dist/service.js) on one throwaway
 * PostgreSQL, loaded by autocannon at BENCH_CONNECTIONS (32) for BENCH_DURATION_S (10) after a
 * warm-up (below), in three topologies, one after the other on the same database:
 * - "A, no balancers": one replica of each tier, each caller straight at the next (the
 *   balancers' own cost is what A has more);
 * - "A": one replica of each tier (users, finance, identity, agents, gateway, adapter), each tier
 *   behind a keep-alive round robin (bench/replicas-balancers.ts, its own process) that every
 *   caller uses, the client included;
 * - "B": the same with two replicas of each tier.
 * For each: req/s, p50 and p99, the services' CPU while idle (2 s before the load: job polls,
 * rate-limit syncs, health), the CPU seconds of each group of processes over the measured
 * window (from /proc: the tiers' replicas, the balancers, PostgreSQL's postmaster and backends,
 * this process, which runs autocannon), and the statements PostgreSQL ran per request
 * (pg_stat_statements, loaded for the run), the internal principals' replay check's among them
 * (how many, how many principals each, their share of PostgreSQL's execution time).
 * Prints Markdown tables for the README's "Running at scale". Bounded: loopback only, fixed
 * durations, 2 to 4 minutes in all.
 */
const ROOT = join(import.meta.dirname, "..");
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARM_UP_S = Number(process.env.BENCH_WARM_UP_S ?? 2);
/**
 * BENCH_WARM_UP_REQUESTS per replica at least (10,000), within BENCH_WARM_UP_MAX_S (60): each
 * replica warms its own JIT on its share of the requests, so a time alone would leave two
 * replicas colder than one, the more so on a busy machine (with 3,000, two replicas spent 1.8x the
 * CPU per request of one; with 15,000, 1.17x).
 */
const WARM_UP_REQUESTS = Number(process.env.BENCH_WARM_UP_REQUESTS ?? 10_000);
const WARM_UP_MAX_S = Number(process.env.BENCH_WARM_UP_MAX_S ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TIERS = ["users", "finance", "identity", "agents", "gateway", "adapter"] as const;
type Tier = (typeof TIERS)[number];
const SUBGRAPH_TIERS = ["users", "finance", "identity", "agents"] as const;
/** CPU groups, in the tables' order */
const GROUPS = ["adapter", "gateway", "users", "finance, identity, agents", "balancers", "PostgreSQL", "autocannon"] as const;
type Group = (typeof GROUPS)[number];

interface Topology {
  name: string;
  replicas: number;
  balanced: boolean;
}
/** BENCH_TOPOLOGIES: some of them by name, comma-separated ("A,B") */
const ONLY = process.env.BENCH_TOPOLOGIES?.split(",");
const TOPOLOGIES: Topology[] = [
  { name: "A, no balancers", replicas: 1, balanced: false },
  { name: "A", replicas: 1, balanced: true },
  { name: "B", replicas: 2, balanced: true },
].filter((topology) => !ONLY || ONLY.includes(topology.name));

interface Statements {
  /** every statement PostgreSQL ran (pg_stat_statements' calls), per request */
  all: number;
  /** INSERTs into internal.principal_uses per request, and principals per INSERT (the batching) */
  replayInserts: number;
  principalsPerInsert: number;
  /** the replay INSERTs' share of the time PostgreSQL spent executing statements */
  replayTimeShare: number;
  /** the most frequent, per request */
  top: { query: string; perRequest: number }[];
}
interface Measured {
  topology: Topology;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** the services' and balancers' CPU seconds per second with no load */
  idle: number;
  /** how long the warm-up took */
  warmUpS: number;
  /** CPU seconds over the measured window */
  cpu: Record<Group, number>;
  statements: Statements;
}

/** CPU time (user and system) of a process in seconds, 0 once gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}
const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** The postmaster and its children (backends, background workers), as they are now. */
function postgresPids(cluster: PostgresCluster): number[] {
  const postmaster = Number(readFileSync(join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function groupOf(tier: Tier): Group {
  return tier === "adapter" || tier === "gateway" || tier === "users" ? tier : "finance, identity, agents";
}

interface Running {
  services: ServiceProcesses;
  /** each child's tier, in the order started */
  tiers: Tier[];
  balancers?: ChildProcess;
  /** where the client sends its requests */
  clientUrl: string;
}

/** The balancers' process: one keep-alive round robin per tier, their URLs once listening. */
async function startBalancers(ports: Record<Tier, number[]>): Promise<{ child: ChildProcess; urls: Record<Tier, string> }> {
  const child = spawn(process.execPath, [...process.execArgv, join(ROOT, "bench", "replicas-balancers.ts"), JSON.stringify(ports)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the balancers exited with ${code}`)));
  });
  return { child, urls: JSON.parse(line) as Record<Tier, string> };
}

async function start(topology: Topology, databaseUrl: string, internalSecret: string, issuer: TestIssuer): Promise<Running> {
  const ports = {} as Record<Tier, number[]>;
  for (const tier of TIERS) ports[tier] = await Promise.all(Array.from({ length: topology.replicas }, () => freePort()));
  const balancers = topology.balanced ? await startBalancers(ports) : undefined;
  // through the tier's balancer, or straight at its one replica
  const urlOf = (tier: Tier) => balancers?.urls[tier] ?? `http://127.0.0.1:${ports[tier][0]}`;
  const subgraphUrls = Object.fromEntries(SUBGRAPHS.map(({ name, urlVariable }) => [urlVariable, `${urlOf(name as Tier)}/graphql`]));
  const clientUrl = urlOf("adapter");
  // a user's requests all come from one address and one user: the limits must not refuse them
  const services = new ServiceProcesses(internalSecret, { ...benchPlatformEnv(issuer), LOG_LEVEL: "error", DATABASE_URL: databaseUrl, DATA_DIR: "memory://" });
  const tiers: Tier[] = [];
  const health: string[] = [];
  for (let index = 0; index < topology.replicas; index++) {
    for (const tier of SUBGRAPH_TIERS) {
      const port = ports[tier][index]!;
      services.start(tier, { SUBGRAPH_PORT: String(port), PUBLIC_BASE_URL: "http://public.invalid", SANDBOX_WEBHOOK_BASE_URL: clientUrl, ...subgraphUrls });
      tiers.push(tier);
      health.push(`http://127.0.0.1:${port}/health`);
    }
    const gatewayPort = ports.gateway[index]!;
    services.start("gateway", { GRAPHQL_PORT: String(await freePort()), GATEWAY_INTERNAL_PORT: String(gatewayPort), ...subgraphUrls });
    tiers.push("gateway");
    health.push(`http://127.0.0.1:${gatewayPort}/health`);
    const adapterPort = ports.adapter[index]!;
    services.start("adapter", {
      PORT: String(adapterPort),
      IDENTITY_PORT: String(await freePort()),
      RPC_PORT: String(await freePort()),
      GATEWAY_URL: `${urlOf("gateway")}/graphql`,
      PUBLIC_BASE_URL: clientUrl,
      TRUST_PROXY: "loopback",
    });
    tiers.push("adapter");
    health.push(`http://127.0.0.1:${adapterPort}/health`);
  }
  try {
    await Promise.all(health.map((url) => services.waitFor(url)));
  } catch (error) {
    await stop({ services, tiers, balancers: balancers?.child, clientUrl });
    throw error;
  }
  return { services, tiers, balancers: balancers?.child, clientUrl };
}

async function stop(running: Running): Promise<void> {
  await running.services.stop();
  const balancers = running.balancers;
  if (balancers && balancers.exitCode === null) {
    const exited = new Promise((resolve) => balancers.once("exit", resolve));
    balancers.kill("SIGTERM");
    await exited;
  }
}

/** A request that must answer `status` (a service just started may shed load with 503 for a moment). */
async function expectStatus(what: string, status: number, url: string, init: RequestInit): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, init);
    const text = await response.text();
    if (response.status === status) return;
    if (response.status !== 503 || attempt === 10) throw new Error(`${what}: expected ${status}, got ${response.status} ${text.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function cpuSnapshot(running: Running, cluster: PostgresCluster): Record<Group, number> {
  const cpu = Object.fromEntries(GROUPS.map((group) => [group, 0])) as Record<Group, number>;
  running.services.children.forEach((child, i) => (cpu[groupOf(running.tiers[i]!)] += cpuSeconds(child.pid!)));
  if (running.balancers) cpu.balancers = cpuSeconds(running.balancers.pid!);
  for (const pid of postgresPids(cluster)) cpu.PostgreSQL += cpuSeconds(pid);
  const own = process.cpuUsage();
  cpu.autocannon = (own.user + own.system) / 1e6;
  return cpu;
}

async function statementsOf(sql: pg.Client, requests: number): Promise<Statements> {
  const { rows } = await sql.query<{ query: string; calls: string; rows: string; ms: number }>(
    `SELECT query, calls, rows, total_exec_time AS ms FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC`,
  );
  const calls = (row: { calls: string }) => Number(row.calls);
  const replay = rows.filter((row) => row.query.includes(`"internal"."principal_uses"`) && row.query.trimStart().startsWith("INSERT"));
  const replayCalls = replay.reduce((sum, row) => sum + calls(row), 0);
  const replayRows = replay.reduce((sum, row) => sum + Number(row.rows), 0);
  const ms = (some: typeof rows) => some.reduce((sum, row) => sum + row.ms, 0);
  return {
    all: rows.reduce((sum, row) => sum + calls(row), 0) / requests,
    replayInserts: replayCalls / requests,
    principalsPerInsert: replayRows / replayCalls,
    replayTimeShare: ms(replay) / ms(rows),
    top: rows.slice(0, 6).map((row) => ({ query: row.query.replace(/\s+/g, " ").slice(0, 110), perRequest: calls(row) / requests })),
  };
}

async function measure(topology: Topology, cluster: PostgresCluster, sql: pg.Client, internalSecret: string, issuer: TestIssuer, jwt: string, register: boolean): Promise<Measured> {
  const t0 = Date.now();
  const running = await start(topology, cluster.adminUrl, internalSecret, issuer);
  try {
    process.stderr.write(`${topology.name}: ${running.services.children.length} services up in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const headers = { "x-platform-jwt": jwt };
    if (register) await expectStatus("creating the bench user", 201, `${running.clientUrl}/v0/user/`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(await registrationBody(jwt)) });
    await expectStatus("GET /v0/user/me", 200, `${running.clientUrl}/v0/user/me`, { headers });
    const target = { url: `${running.clientUrl}/v0/user/me`, headers, connections: CONNECTIONS };
    const idleBefore = cpuSnapshot(running, cluster);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleAfter = cpuSnapshot(running, cluster);
    const idle = (["adapter", "gateway", "users", "finance, identity, agents", "balancers"] as const).reduce((sum, group) => sum + idleAfter[group] - idleBefore[group], 0) / 2;
    const warmUpStart = Date.now();
    await autocannon({ ...target, duration: WARM_UP_S });
    const warmUp = autocannon({ ...target, amount: WARM_UP_REQUESTS * topology.replicas });
    const cap = setTimeout(() => (warmUp as unknown as { stop(): void }).stop(), Math.max(0, WARM_UP_MAX_S * 1000 - (Date.now() - warmUpStart)));
    await warmUp;
    clearTimeout(cap);
    const warmUpS = (Date.now() - warmUpStart) / 1000;
    await sql.query("SELECT pg_stat_statements_reset()");
    const before = cpuSnapshot(running, cluster);
    const result = await autocannon({ ...target, duration: DURATION_S });
    const after = cpuSnapshot(running, cluster);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${topology.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const cpu = Object.fromEntries(GROUPS.map((group) => [group, after[group] - before[group]])) as Record<Group, number>;
    const statements = await statementsOf(sql, result.requests.total);
    const measured = { topology, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, idle, warmUpS, cpu, statements };
    process.stderr.write(
      `${topology.name}: warm-up ${warmUpS.toFixed(1)} s, idle ${idle.toFixed(3)} CPU s/s; ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms; CPU s: ${GROUPS.map((g) => `${g} ${cpu[g].toFixed(2)}`).join(", ")}; ` +
        `${statements.all.toFixed(2)} statements per request, ${statements.replayInserts.toFixed(2)} replay INSERTs per request (${statements.principalsPerInsert.toFixed(2)} principals each)\n`,
    );
    for (const { query, perRequest } of statements.top) process.stderr.write(`  ${perRequest.toFixed(3)}/request  ${query}\n`);
    return measured;
  } finally {
    await stop(running);
  }
}

function printTables(runs: Measured[], startedAt: Date, load: number[]): void {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  const byName = (name: string) => runs.find((run) => run.topology.name === name);
  console.log(
    `\nnpm run bench:replicas, ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}; GET /v0/user/me at ${CONNECTIONS} connections, ${DURATION_S} s after a warm-up (${WARM_UP_S} s, then ${WARM_UP_REQUESTS.toLocaleString("en")} requests per replica within ${WARM_UP_MAX_S} s); load average at the start ${load.map((l) => l.toFixed(2)).join(" ")}\n`,
  );
  console.log(`| topology | req/s | p50 ms | p99 ms | ${GROUPS.join(" | ")} | total CPU ms per request |`);
  console.log(`|---|---:|---:|---:|${GROUPS.map(() => "---:").join("|")}|---:|`);
  for (const run of runs) {
    const ms = (seconds: number) => ((seconds * 1000) / run.requests).toFixed(3);
    const total = GROUPS.reduce((sum, group) => sum + run.cpu[group], 0);
    console.log(`| ${run.topology.name} | ${run.rps.toFixed(0)} | ${run.p50} | ${run.p99} | ${GROUPS.map((group) => ms(run.cpu[group])).join(" | ")} | ${ms(total)} |`);
  }
  console.log(`\n(CPU: milliseconds per request of each group's processes over the measured window; the machine has ${navigatorCores()} cores, ${(DURATION_S * navigatorCores()).toFixed(0)} CPU seconds in a window)`);
  const cpuUsed = (run: Measured) => GROUPS.reduce((sum, group) => sum + run.cpu[group], 0);
  console.log(`\n| topology | warm-up s | services' CPU when idle, ms/s | CPU seconds used in the ${DURATION_S} s window | statements per request | replay INSERTs per request | principals per INSERT | replay INSERTs' share of statement time |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  for (const run of runs)
    console.log(
      `| ${run.topology.name} | ${run.warmUpS.toFixed(1)} | ${(run.idle * 1000).toFixed(0)} | ${cpuUsed(run).toFixed(1)} | ${run.statements.all.toFixed(2)} | ${run.statements.replayInserts.toFixed(2)} | ${run.statements.principalsPerInsert.toFixed(2)} | ${(run.statements.replayTimeShare * 100).toFixed(0)} % |`,
    );
  const a = byName("A");
  const b = byName("B");
  const direct = byName("A, no balancers");
  if (a && b) console.log(`\nB / A throughput: ${(b.rps / a.rps).toFixed(2)}x`);
  if (a && direct) console.log(`A / A without balancers throughput: ${(a.rps / direct.rps).toFixed(2)}x`);
}

const navigatorCores = () => Number(execFileSync("nproc", { encoding: "utf8" }).trim());

const startedAt = new Date();
const load = loadavg();
if (isStale()) await build();
const cluster = await startPostgresCluster();
const issuer = await TestIssuer.start();
const sql = new pg.Client({ connectionString: cluster.adminUrl });
try {
  // pg_stat_statements counts the statements; it must be loaded when the server starts
  const setup = new pg.Client({ connectionString: cluster.adminUrl });
  await setup.connect();
  await setup.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await setup.end();
  await cluster.stop();
  await cluster.start();
  await sql.connect();
  await sql.query("CREATE EXTENSION pg_stat_statements");
  const internalSecret = randomBytes(32).toString("hex");
  const jwt = await issuer.sign({ sub: "bench-replicas", exp: Math.floor(Date.now() / 1000) + 3600 });
  const runs: Measured[] = [];
  for (const topology of TOPOLOGIES) runs.push(await measure(topology, cluster, sql, internalSecret, issuer, jwt, runs.length === 0));
  printTables(runs, startedAt, load);
  process.stderr.write(`bench:replicas took ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s\n`);
} finally {
  await sql.end().catch(() => undefined);
  await issuer.stop();
  await cluster.destroy();
}
