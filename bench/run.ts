import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { TRANSACTION_FIELDS } from "../rest-adapter/graphql-fields.ts";
import { TestIssuer } from "../test/support/jwt-issuer.ts";
import { freePort } from "../test/support/net.ts";
import { startPostgresCluster, type PostgresCluster } from "../test/support/postgres.ts";
import { registrationBody } from "../test/support/registration.ts";

/**
 * `npm run bench`: the single-process server (PGlite; `DATABASE_URL`, or `BENCH_DATABASE=postgres`
 * for a throwaway PostgreSQL cluster); GET /v0/user/me through REST, the same data through /graphql, a baseline
 * Prisma handler, and the transaction feed (GET /v0/transactions?meta=true&limit=50 and the same
 * through /graphql) of a user with BENCH_FEED_ROWS transactions. BENCH_OTEL=1 runs the server
 * with tracing on, exporting every span to a local OTLP sink (the cost of tracing; off is the
 * default, as in production without OTEL_EXPORTER_OTLP_ENDPOINT). BENCH_JSON=path also writes
 * the figures there as JSON, for comparing runs. Bounded: loopback only, fixed duration.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASE = process.env.BENCH_DATABASE ?? "pglite";
if (DATABASE !== "pglite" && DATABASE !== "postgres") throw new Error(`BENCH_DATABASE: expected pglite or postgres, got "${DATABASE}"`);
// 100,000 is the feed target's data set; PGlite (WebAssembly, one connection) gets a tenth by default
const FEED_ROWS = Number(process.env.BENCH_FEED_ROWS ?? (DATABASE === "postgres" || process.env.DATABASE_URL ? 100_000 : 10_000));
const FEED_P50_TARGET_MS = 30;
const ROOT = join(import.meta.dirname, "..");

const cluster: PostgresCluster | undefined = DATABASE === "postgres" ? await startPostgresCluster() : undefined;
// an OTLP/HTTP collector that takes every batch and keeps nothing
const otlpSink = process.env.BENCH_OTEL === "1" ? createServer((request, response) => request.resume().on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"))) : undefined;
if (otlpSink) await new Promise<void>((resolve) => otlpSink.listen(0, "127.0.0.1", resolve));
const issuer = await TestIssuer.start();
const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
const spawnedAt = performance.now();
const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF] : []), "--import", "tsx", "bench/server.ts"], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATA_DIR: "memory://",
    ...(cluster && { DATABASE_URL: cluster.adminUrl }),
    LOG_LEVEL: "silent",
    SAFE_DEPLOY_DELAY_MS: "0",
    // one user and one address make every request here: measure the path, not the limiter's refusals
    RATE_LIMITS: JSON.stringify({ user: { limit: 100_000_000 }, ip: { limit: 100_000_000 } }),
    AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
    // the bench's issuer serves its JWKS over http on loopback
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
    ...(otlpSink && { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlpSink.address() as { port: number }).port}` }),
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
const coldStartMs = performance.now() - spawnedAt;
const server = JSON.parse(line) as { ready_ms: number; platform: string; graphql: string; baseline: string };

try {
  const jwt = await issuer.sign({ sub: "bench-user", exp: Math.floor(Date.now() / 1000) + 3600 });
  const created = await fetch(`${server.platform}/v0/user/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-platform-jwt": jwt },
    body: JSON.stringify(await registrationBody(jwt)),
  });
  const user = (await created.json()) as { id: string };
  if (created.status !== 201) throw new Error(`could not create the bench user: ${created.status}`);

  const wallets = (await (await fetch(`${server.platform}/v0/wallets`, { headers: { "x-platform-jwt": jwt } })).json()) as { items: { id: number }[] };
  const seeded = await fetch(`${server.baseline}/seed-feed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_id: user.id, count: FEED_ROWS, wallet_ids: wallets.items.slice(0, 2).map((w) => w.id), id_prefix: "bench" }),
  });
  if (seeded.status !== 200) throw new Error(`could not seed the feed: ${seeded.status} ${await seeded.text()}`);
  const seed = (await seeded.json()) as { kind: string; ms: number };
  const feedUrl = `${server.platform}/v0/transactions?meta=true&limit=50`;
  const feedPage = (await (await fetch(feedUrl, { headers: { "x-platform-jwt": jwt } })).json()) as { items: unknown[]; pagination: { total: number }; meta: { transaction_count: number } };
  if (feedPage.items.length !== 50 || feedPage.pagination.total !== FEED_ROWS || feedPage.meta.transaction_count !== FEED_ROWS)
    throw new Error(`the feed does not show the seeded rows: ${JSON.stringify(feedPage.pagination)}`);
  // the signed-in user's feed, as GET /v0/transactions asks for it
  const feedQuery = `{ transactions(page: { limit: 50 }) { items { ${TRANSACTION_FIELDS} } pagination { limit offset total } meta { transaction_count date_range { earliest latest } cashflow { gross_in gross_out net } categories { category total_amount percentage_of_total } } } }`;

  const query = `{ me { id auth_provider auth_provider_id status primary_eoa_address primary_chain_id safe_creation_status phone_number created_at updated_at } }`;
  const targets = [
    { name: "REST GET /v0/user/me", url: `${server.platform}/v0/user/me`, method: "GET" as const, headers: { "x-platform-jwt": jwt } },
    { name: "GraphQL { me }", url: server.graphql, method: "POST" as const, headers: { "x-platform-jwt": jwt, "content-type": "application/json" }, body: JSON.stringify({ query }) },
    { name: "baseline Prisma handler", url: `${server.baseline}/baseline/${user.id}`, method: "GET" as const, headers: {} },
    { name: "REST feed ?meta=true&limit=50", url: feedUrl, method: "GET" as const, headers: { "x-platform-jwt": jwt } },
    { name: "GraphQL feed + meta", url: server.graphql, method: "POST" as const, headers: { "x-platform-jwt": jwt, "content-type": "application/json" }, body: JSON.stringify({ query: feedQuery }) },
  ];
  const results: Record<string, { rps: number; p50: number; p99: number }> = {};
  for (const target of targets) {
    // BENCH_ONLY (a substring of target names, e.g. "feed"): profile one path without the others
    if (process.env.BENCH_ONLY && !target.name.includes(process.env.BENCH_ONLY)) {
      results[target.name] = { rps: NaN, p50: NaN, p99: NaN };
      continue;
    }
    // a short warm-up so JIT and caches do not count against the first target
    await autocannon({ ...target, connections: CONNECTIONS, duration: 2 });
    const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_S });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    // GraphQL answers errors with 200: one body must carry data
    if (target.body) {
      const body = (await (await fetch(target.url, { method: "POST", headers: target.headers, body: target.body })).json()) as { errors?: unknown };
      if (body.errors) throw new Error(`${target.name}: ${JSON.stringify(body.errors)}`);
    }
    results[target.name] = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  }
  const rss = ((await (await fetch(`${server.baseline}/rss`)).json()) as { rss: number }).rss;

  const [rest, graphql, baseline, restFeed, graphqlFeed] = targets.map((t) => results[t.name]!);
  console.log(`\n${"target".padEnd(30)} ${"req/s".padStart(9)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(30)} ${r.rps.toFixed(0).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}`);
  console.log(`\nREST/GraphQL latency p50: ${(rest!.p50 / graphql!.p50).toFixed(2)}x (target <= 1.15x); throughput ${(rest!.rps / graphql!.rps).toFixed(2)}x`);
  console.log(`REST/baseline throughput: ${(rest!.rps / baseline!.rps).toFixed(2)}x (target >= 0.5x)`);
  // the slower of the feed targets that ran (BENCH_ONLY may skip one)
  const feedMax = Math.max(...[restFeed!.p50, graphqlFeed!.p50].filter((p50) => !Number.isNaN(p50)));
  console.log(
    `feed: ${FEED_ROWS.toLocaleString("en")} transactions of one user on ${seed.kind === "postgres" ? "PostgreSQL" : "PGlite"} (seeded in ${(seed.ms / 1000).toFixed(1)} s); ` +
      (seed.kind === "postgres" && FEED_ROWS >= 100_000
        ? `p50 ${feedMax.toFixed(1)} ms (target < ${FEED_P50_TARGET_MS} ms): ${feedMax < FEED_P50_TARGET_MS ? "met" : "MISSED"}`
        : `the < ${FEED_P50_TARGET_MS} ms p50 target is for 100,000 rows on PostgreSQL (BENCH_DATABASE=postgres)`),
  );
  console.log(`cold start: ${coldStartMs.toFixed(0)} ms to ready (in-process start ${server.ready_ms.toFixed(0)} ms); RSS after load: ${(rss / 1048576).toFixed(0)} MiB`);
  console.log(`tracing: ${otlpSink ? "on (every span exported to a local OTLP sink)" : "off"}`);
  if (process.env.BENCH_JSON) {
    const figures = {
      database: seed.kind,
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      tracing: Boolean(otlpSink),
      targets: results,
      ratios: { rest_over_baseline_rps: rest!.rps / baseline!.rps, rest_over_graphql_p50: rest!.p50 / graphql!.p50 },
      feed: { rows: FEED_ROWS, p50_ms: feedMax },
      cold_start_ms: coldStartMs,
      in_process_start_ms: server.ready_ms,
      rss_bytes: rss,
    };
    await writeFile(process.env.BENCH_JSON, `${JSON.stringify(figures, null, 2)}\n`);
  }
  console.log(`(${CONNECTIONS} connections, ${DURATION_S} s per target, one run: compare ratios, not absolute numbers)`);
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
  await issuer.stop();
  await cluster?.destroy();
  otlpSink?.close();
}
