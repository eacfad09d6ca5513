import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { TestIssuer } from "../test/support/jwt-issuer.ts";
import { freePort } from "../test/support/net.ts";
import { registrationBody } from "../test/support/registration.ts";

/**
 * `npm run bench`: the single-process server on PGlite; GET /v0/user/me through REST, the same
 * data through /graphql, and a baseline Prisma handler. Bounded: loopback only, fixed duration.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROOT = join(import.meta.dirname, "..");

const issuer = await TestIssuer.start();
const ports = { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
const spawnedAt = performance.now();
const child = spawn(process.execPath, ["--import", "tsx", "bench/server.ts"], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    SAFE_DEPLOY_DELAY_MS: "0",
    // one user and one address make every request here: measure the path, not the limiter's refusals
    RATE_LIMITS: JSON.stringify({ user: { limit: 100_000_000 }, ip: { limit: 100_000_000 } }),
    AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
    // the bench's issuer serves its JWKS over http on loopback
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
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

  const query = `{ me { id auth_provider auth_provider_id status primary_eoa_address primary_chain_id safe_creation_status phone_number created_at updated_at } }`;
  const targets = [
    { name: "REST GET /v0/user/me", url: `${server.platform}/v0/user/me`, method: "GET" as const, headers: { "x-platform-jwt": jwt } },
    { name: "GraphQL { me }", url: server.graphql, method: "POST" as const, headers: { "x-platform-jwt": jwt, "content-type": "application/json" }, body: JSON.stringify({ query }) },
    { name: "baseline Prisma handler", url: `${server.baseline}/baseline/${user.id}`, method: "GET" as const, headers: {} },
  ];
  const results: Record<string, { rps: number; p50: number; p99: number }> = {};
  for (const target of targets) {
    // a short warm-up so JIT and caches do not count against the first target
    await autocannon({ ...target, connections: CONNECTIONS, duration: 2 });
    const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_S });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    results[target.name] = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  }
  const rss = ((await (await fetch(`${server.baseline}/rss`)).json()) as { rss: number }).rss;

  const [rest, graphql, baseline] = targets.map((t) => results[t.name]!);
  console.log(`\n${"target".padEnd(28)} ${"req/s".padStart(9)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(28)} ${r.rps.toFixed(0).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}`);
  console.log(`\nREST/GraphQL latency p50: ${(rest!.p50 / graphql!.p50).toFixed(2)}x (target <= 1.15x); throughput ${(rest!.rps / graphql!.rps).toFixed(2)}x`);
  console.log(`REST/baseline throughput: ${(rest!.rps / baseline!.rps).toFixed(2)}x (target >= 0.5x)`);
  console.log(`cold start: ${coldStartMs.toFixed(0)} ms to ready (in-process start ${server.ready_ms.toFixed(0)} ms); RSS after load: ${(rss / 1048576).toFixed(0)} MiB`);
  console.log(`(${CONNECTIONS} connections, ${DURATION_S} s per target, one run: compare ratios, not absolute numbers)`);
} finally {
  child.kill("SIGTERM");
  await issuer.stop();
}
