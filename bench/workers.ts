import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import type { TestIssuer } from "../test/support/jwt-issuer.ts";
import type { PostgresCluster } from "../test/support/postgres.ts";
import { registrationBody } from "../test/support/registration.ts";
import { baseEnv, benchPlatformEnv, freePorts, portsEnv } from "./server-env.ts";

// `npm run bench`'s "2 workers / 1 worker" figure (issue 30): `npm start` (dist/start.js) with
// WORKERS=1 and then WORKERS=2, each on a fresh PostgreSQL database, loaded on the user path
// (`GET /v0/user/me`) at 32 connections, after BENCH_WORKERS_WARM_UP_S (20) of warm-up (each worker warms its
// own JIT: with less, 2 workers spent three times the CPU per request of one here). BENCH_WORKERS=0
// leaves it out.

const ROOT = join(import.meta.dirname, "..");
/** BENCH_WORKERS_WARM_UP_S: seconds of load before the measured ones */
const WARM_UP_S = Number(process.env.BENCH_WORKERS_WARM_UP_S ?? 20);
/** Issue 30's target: when the database is not the limit */
export const WORKERS_TARGET = 1.5;

export interface WorkersFigures {
  connections: number;
  one: Served;
  two: Served;
  ratio: number;
}

/** `cpu_ms_per_request`: the server's CPU time (primary and workers) over the requests answered, a figure the machine's load does not skew as much as req/s */
interface Served {
  rps: number;
  p50: number;
  p99: number;
  cpu_ms_per_request: number;
}

/** CPU time (user and system, ms) of a process and its children, from /proc. */
function cpuMs(pid: number): number {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    // no children: one worker
  }
  return [pid, ...children].reduce((sum, p) => {
    const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command)
    return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }, 0);
}

async function serve(workers: number, cluster: PostgresCluster, issuer: TestIssuer, connections: number, durationS: number): Promise<Served> {
  const database = `bench_workers_${workers}`;
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const ports = await freePorts();
  const child = spawn(process.execPath, ["dist/start.js"], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      WORKERS: String(workers),
      DATABASE_URL: cluster.adminUrl.replace(/\/app$/, `/${database}`),
      DATA_DIR: "memory://",
      // info: the listening lines say when every worker is up; the request lines go nowhere, alike for both
      LOG_LEVEL: "info",
      ...benchPlatformEnv(issuer),
      ...portsEnv(ports),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let listening = 0;
      child.stdout!.on("data", (chunk: Buffer) => {
        listening += (chunk.toString().match(/listening on/g) ?? []).length;
        if (listening === 4) resolve();
      });
      child.once("exit", (code) => reject(new Error(`WORKERS=${workers}: npm start exited with ${code} before listening`)));
    });
    const platform = `http://127.0.0.1:${ports.PORT}`;
    const jwt = await issuer.sign({ sub: `bench-workers-${workers}`, exp: Math.floor(Date.now() / 1000) + 3600 });
    const created = await fetch(`${platform}/v0/user/`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify(await registrationBody(jwt)) });
    if (created.status !== 201) throw new Error(`WORKERS=${workers}: could not create the bench user: ${created.status} ${await created.text()}`);
    const target = { url: `${platform}/v0/user/me`, headers: { "x-platform-jwt": jwt } };
    // longer than the other targets' 2 s: each worker warms its own JIT, on half the requests
    await autocannon({ ...target, connections, duration: WARM_UP_S });
    const cpuBefore = cpuMs(child.pid!);
    const result = await autocannon({ ...target, connections, duration: durationS });
    const cpu = cpuMs(child.pid!) - cpuBefore;
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`WORKERS=${workers}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu_ms_per_request: cpu / result.requests.total };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** 1 then 2 workers, back to back on the same cluster. */
export async function measureWorkers(cluster: PostgresCluster, issuer: TestIssuer, durationS: number, connections = 32): Promise<WorkersFigures> {
  const one = await serve(1, cluster, issuer, connections, durationS);
  process.stderr.write(`postgres, ${connections} conn, user: REST, WORKERS=1: ${one.rps.toFixed(0)} req/s, p50 ${one.p50} ms, p99 ${one.p99} ms, ${one.cpu_ms_per_request.toFixed(2)} CPU ms/request\n`);
  const two = await serve(2, cluster, issuer, connections, durationS);
  process.stderr.write(`postgres, ${connections} conn, user: REST, WORKERS=2: ${two.rps.toFixed(0)} req/s, p50 ${two.p50} ms, p99 ${two.p99} ms, ${two.cpu_ms_per_request.toFixed(2)} CPU ms/request\n`);
  return { connections, one, two, ratio: two.rps / one.rps };
}

export function printWorkers(figures: WorkersFigures): void {
  const row = (name: string, f: Served) => `| ${name} | ${f.rps.toFixed(0)} · ${f.p50} · ${f.p99} | ${f.cpu_ms_per_request.toFixed(2)} |`;
  console.log(`\nnpm start on PostgreSQL, GET /v0/user/me, ${figures.connections} conn (autocannon, PostgreSQL and the server share this machine's cores)\n`);
  console.log(`| WORKERS | req/s · p50 ms · p99 ms | server CPU ms per request |\n|---|---:|---:|\n${row("1", figures.one)}\n${row("2", figures.two)}`);
  console.log(`\n2 workers / 1 worker throughput: ${figures.ratio.toFixed(2)}x (target >= ${WORKERS_TARGET}x when the database is not the limit: ${figures.ratio >= WORKERS_TARGET ? "met" : "MISSED"})`);
}
