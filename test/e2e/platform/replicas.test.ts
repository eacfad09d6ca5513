import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRINCIPAL_HEADER, signPrincipal } from "../../../lib/auth/internal-principal.ts";
import { SUBGRAPHS } from "../../../lib/graphql/subgraph-registry.ts";
import { BANKING_SIGNATURE_HEADER, signBankingPayload } from "../../../lib/webhooks/banking-signature.ts";
import { sandboxWebhookSecret } from "../../../lib/webhooks/sandbox-webhook-secret.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { freePort } from "../../support/net.ts";
import { registrationBody } from "../../support/registration.ts";
import { startRoundRobin, type RoundRobin } from "../../support/round-robin.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 31: two replicas of every subgraph, the gateway and the adapter, plain processes on one
// PostgreSQL database, each tier behind a round robin (test/support/round-robin.ts) that every
// caller uses (the adapter to reach the gateway, the gateway and the subgraphs to reach a
// subgraph, the sandbox providers to reach the adapter's webhook receivers). A bounded mixed load
// runs while one replica of each tier is killed with SIGKILL and restarted, and then every replica
// is rolled with SIGTERM. Afterwards the database holds every acknowledged write exactly once, and
// the clients saw only retryable answers on the way. PostgreSQL only: on PGlite one process owns
// a database, so there are no replicas.
//
// The sandbox providers' simulated world is per process (README "Shared state"), so the load uses
// none of it across requests: registrations, sandbox deposits (finance writes them in its own
// tables), feed reads, agent tasks (strategy runs of a low-balance alert) and banking webhook
// events of an unknown login, each delivered twice (recorded once, a no-op).

const ROOT = join(import.meta.dirname, "..", "..", "..");
const REPLICAS = 2;
const TIERS = ["users", "finance", "identity", "agents", "gateway", "adapter"] as const;
type Tier = (typeof TIERS)[number];
/** virtual users running the load at once, each repeating its round until the rolls are done */
const CLIENTS = 4;
/** a retryable answer is retried after this, up to RETRIES times */
const RETRY_MS = 250;
const RETRIES = 60;

const internalSecret = randomBytes(32).toString("hex");
let databaseUrl: string;
let issuer: TestIssuer;
let sql: pg.Client;
const output: string[] = [];

interface Replica {
  tier: Tier;
  index: number;
  env: Record<string, string>;
  /** the port whose /health says the replica serves */
  healthPort: number;
  child?: ChildProcess;
}
const replicas: Replica[] = [];
const balancers = {} as Record<Tier, RoundRobin>;

function spawnReplica(replica: Replica): void {
  const service = replica.tier;
  const child = spawn(process.execPath, ["dist/service.js", service], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", INTERNAL_SECRET: internalSecret, HOST: "127.0.0.1", JWKS_ALLOW_LOOPBACK_HTTP: "true", DATABASE_URL: databaseUrl, DATA_DIR: "memory://", ...replica.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const name = `${service}#${replica.index}`;
  child.stdout!.on("data", (chunk) => output.push(`[${name}] ${chunk}`));
  child.stderr!.on("data", (chunk) => output.push(`[${name}] ${chunk}`));
  replica.child = child;
}

async function healthy(replica: Replica, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${replica.healthPort}/health`)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${replica.tier}#${replica.index} did not come up:\n${output.slice(-40).join("")}`);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

/** Stops the replica with `signal`, starts it again on its ports and waits until it serves. */
async function restart(replica: Replica, signal: NodeJS.Signals): Promise<void> {
  replica.child!.kill(signal);
  await exited(replica.child!);
  spawnReplica(replica);
  await healthy(replica);
}

let started = 0;
beforeAll(async () => {
  if (!onPostgres) return;
  const t0 = Date.now();
  databaseUrl = (await freshDatabaseUrl())!;
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  issuer = await TestIssuer.start();
  const ports = Object.fromEntries(await Promise.all(TIERS.map(async (tier) => [tier, await Promise.all(Array.from({ length: REPLICAS }, () => freePort()))] as const))) as Record<Tier, number[]>;
  for (const tier of TIERS) balancers[tier] = await startRoundRobin(ports[tier]);
  const subgraphUrls = Object.fromEntries(SUBGRAPHS.map(({ name, urlVariable }) => [urlVariable, `${balancers[name as Tier].url}/graphql`]));
  const adapterUrl = balancers.adapter.url;
  const authProviders = JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]);
  for (let index = 0; index < REPLICAS; index++) {
    for (const tier of ["users", "finance", "identity", "agents"] as const) {
      const port = ports[tier][index]!;
      replicas.push({ tier, index, healthPort: port, env: { SUBGRAPH_PORT: String(port), SAFE_DEPLOY_DELAY_MS: "0", PUBLIC_BASE_URL: "http://public.invalid", SANDBOX_WEBHOOK_BASE_URL: adapterUrl, ...subgraphUrls } });
    }
    const [publicPort, identityPort, rpcPort] = [await freePort(), await freePort(), await freePort()];
    replicas.push({ tier: "gateway", index, healthPort: ports.gateway[index]!, env: { GRAPHQL_PORT: String(publicPort), GATEWAY_INTERNAL_PORT: String(ports.gateway[index]), AUTH_PROVIDERS: authProviders, ...subgraphUrls } });
    replicas.push({
      tier: "adapter",
      index,
      healthPort: ports.adapter[index]!,
      env: { PORT: String(ports.adapter[index]), IDENTITY_PORT: String(identityPort), RPC_PORT: String(rpcPort), GATEWAY_URL: `${balancers.gateway.url}/graphql`, PUBLIC_BASE_URL: adapterUrl, TRUST_PROXY: "loopback" },
    });
  }
  for (const replica of replicas) spawnReplica(replica);
  await Promise.all(replicas.map((replica) => healthy(replica, 150_000)));
  // a crypto asset for the deposits (finance's seeded catalogue may not hold one)
  await sql.query(`INSERT INTO finance.assets (id, asset_type, symbol, name, decimals) VALUES ('ast_test_usdc', 'crypto', 'USDC', 'USDC', 6) ON CONFLICT (symbol) DO NOTHING`);
  started = Date.now() - t0;
}, 200_000);

afterAll(async () => {
  for (const replica of replicas) replica.child?.kill("SIGTERM");
  await Promise.all(replicas.map((replica) => (replica.child ? exited(replica.child) : undefined)));
  for (const balancer of Object.values(balancers)) await balancer.close();
  await issuer?.stop();
  await sql?.end();
});

/** What the clients saw: every answer that was not the one asked for, by kind. */
const seen = { retryable: {} as Record<string, number>, unexpected: [] as string[], requests: 0 };
const count = (kind: string) => (seen.retryable[kind] = (seen.retryable[kind] ?? 0) + 1);

/**
 * A request through the adapter's round robin, retried as it was while the answer is retryable
 * (502, 503, a connection reset): every request of the load may be repeated, being a read, a
 * write with an Idempotency-Key, a registration (a repeat is 409), a webhook event (recorded
 * once) or a strategy's enabling (a repeat is 409 or a second one, never asserted on). Any other
 * answer than `expect` is noted as unexpected, and the test fails.
 */
async function call(path: string, init: RequestInit & { expect: number[] }): Promise<{ status: number; body: any } | undefined> {
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    seen.requests++;
    let response: Response;
    try {
      response = await fetch(`${balancers.adapter.url}${path}`, init);
    } catch (error) {
      count(`reset (${(error as { cause?: { code?: string } }).cause?.code ?? "fetch failed"})`);
      await new Promise((r) => setTimeout(r, RETRY_MS));
      continue;
    }
    const text = await response.text().catch(() => undefined);
    if (text === undefined) {
      count("reset (body)");
      continue;
    }
    // the round robin's own 502 is plain text, the adapter's answers JSON
    const body = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined;
    if (init.expect.includes(response.status)) return { status: response.status, body };
    if (response.status === 502 || response.status === 503) {
      count(`${response.status}${body?.error_code ? ` ${body.error_code}` : ""}`);
      await new Promise((r) => setTimeout(r, RETRY_MS));
      continue;
    }
    seen.unexpected.push(`${init.method ?? "GET"} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return undefined;
  }
  seen.unexpected.push(`${init.method ?? "GET"} ${path}: still failing after ${RETRIES} attempts`);
  return undefined;
}

const json = (jwt: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", "x-platform-jwt": jwt, ...headers },
  body: JSON.stringify(body),
});

/** What the clients were told succeeded. */
const acknowledged = {
  users: new Map<string, string>(),
  deposits: new Map<string, { user_id: string; id: string; amount: number }>(),
  tasks: new Map<string, { user_id: string; id: string }>(),
  events: new Set<string>(),
};

/** One virtual user's round: registers, enables a strategy, deposits, reads its feed, queues a task, and a webhook event arrives twice. */
async function round(client: number, n: number): Promise<void> {
  const jwt = await issuer.sign({ sub: `replica-${client}-${n}-${randomBytes(3).toString("hex")}` });
  const body = await registrationBody(jwt);
  // a registration whose first answer was lost is 409 on the retry: the user exists either way
  const registered = await call("/v0/user/", { ...json(jwt, body), expect: [201, 409] });
  if (!registered) return;
  const me = await call("/v0/user/me?expand=wallets", { headers: { "x-platform-jwt": jwt }, expect: [200] });
  if (!me) return;
  if (registered.status === 201) expect(registered.body.id).toBe(me.body.id);
  acknowledged.users.set(me.body.id, jwt);
  const wallet = me.body.wallets.find((w: { type: string }) => w.type === "EOA").id as number;
  for (let d = 1; d <= 3; d++) {
    const key = randomUUID();
    const deposit = await call("/v0/sandbox/deposits", { ...json(jwt, { wallet_id: wallet, asset: "USDC", amount: String(d) }, { "idempotency-key": key }), expect: [201] });
    if (!deposit) return;
    acknowledged.deposits.set(key, { user_id: me.body.id, id: deposit.body.id, amount: d });
  }
  const feed = await call("/v0/transactions?limit=100", { headers: { "x-platform-jwt": jwt }, expect: [200] });
  if (feed) expect(feed.body.items.filter((t: { type: string }) => t.type === "deposit")).toHaveLength(3);
  const enabled = await call("/v0/user/me/strategies", { ...json(jwt, { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: wallet, asset: "USDC", threshold: "1" } }), expect: [201, 409] });
  const strategy = enabled?.status === 409 ? (await call("/v0/user/me/strategies", { headers: { "x-platform-jwt": jwt }, expect: [200] }))?.body.items[0] : enabled?.body;
  if (strategy) {
    const key = randomUUID();
    const task = await call("/v0/agent-tasks", { ...json(jwt, { kind: "strategy_run", input: { user_strategy_id: strategy.id } }, { "idempotency-key": key }), expect: [201] });
    if (task) acknowledged.tasks.set(key, { user_id: me.body.id, id: task.body.id });
  }
  const event = { id: `evt_replicas_${randomBytes(6).toString("hex")}`, type: "transactions.available", created_at: new Date().toISOString(), data: { item_id: "item_unknown" } };
  const payload = JSON.stringify(event);
  const deliveries = await Promise.all(
    [0, 1].map(() => {
      const signature = signBankingPayload(payload, [sandboxWebhookSecret(internalSecret, "banking")], Math.floor(Date.now() / 1000));
      return call("/v0/webhooks/banking-provider/events", { method: "POST", headers: { "content-type": "application/json", [BANKING_SIGNATURE_HEADER]: signature }, body: payload, expect: [200] });
    }),
  );
  if (deliveries.every(Boolean)) acknowledged.events.add(event.id);
}

describe.skipIf(!onPostgres)(`${REPLICAS} replicas of every tier on one PostgreSQL, killed and rolled under load`, () => {
  it("keeps every acknowledged write once, ends every task (run again only when killed under it), and shows the clients only retryable errors", async () => {
    const t0 = Date.now();
    let rolling = true;
    const load = Array.from({ length: CLIENTS }, async (_, client) => {
      // a failed check in a round is noted, and fails the test at the end like any unexpected answer
      for (let n = 0; rolling; n++) await round(client, n).catch((error: Error) => seen.unexpected.push(`round ${client}.${n}: ${error.message}`));
    });
    const phases: string[] = [];
    const phase = async (name: string, index: number, signal: NodeJS.Signals) => {
      const t = Date.now();
      // every tier at once: the machine has two cores, one tier at a time would take minutes
      await Promise.all(replicas.filter((r) => r.index === index).map((replica) => restart(replica, signal)));
      phases.push(`${name}: ${Date.now() - t} ms`);
    };
    await new Promise((r) => setTimeout(r, 3_000));
    await phase("SIGKILL #0 and restart", 0, "SIGKILL");
    await new Promise((r) => setTimeout(r, 2_000));
    await phase("SIGTERM roll #1", 1, "SIGTERM");
    await phase("SIGTERM roll #0", 0, "SIGTERM");
    await new Promise((r) => setTimeout(r, 2_000));
    rolling = false;
    await Promise.all(load);
    const loadMs = Date.now() - t0;

    // a captured principal is accepted once by all the replicas of a service, not once by each
    const query = JSON.stringify({ query: "{ _service { sdl } }" });
    const header = signPrincipal({ kind: "internal", service: "gateway" }, { secret: internalSecret, audience: "users", body: query });
    const [first, second] = replicas.filter((r) => r.tier === "users");
    const direct = (replica: Replica) => fetch(`http://127.0.0.1:${replica.healthPort}/graphql`, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: header }, body: query });
    const replayed = [(await direct(first!)).status, (await direct(second!)).status];

    // every task queued ends, within the job queue's lease of a replica killed mid-run
    const taskIds = [...acknowledged.tasks.values()].map((t) => t.id);
    const deadline = Date.now() + 60_000;
    // the users' own tasks, and those automation made for them (a ledger event's, one per cause: dedupe_key)
    let tasks: { id: string; status: string; attempts: number; automated: boolean }[] = [];
    for (;;) {
      tasks = (await sql.query(`SELECT id, status, attempts, dedupe_key IS NOT NULL AS automated FROM agents.agent_tasks WHERE user_id = ANY($1)`, [[...acknowledged.users.keys()]])).rows;
      if (tasks.every((t) => ["completed", "failed", "cancelled"].includes(t.status)) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    const userIds = [...acknowledged.users.keys()];
    const users = (await sql.query(`SELECT id, auth_provider_id FROM users.users WHERE id = ANY($1)`, [userIds])).rows;
    const subjects = (await sql.query(`SELECT auth_provider_id, count(*)::int AS n FROM users.users WHERE auth_provider_id LIKE 'replica-%' GROUP BY 1 HAVING count(*) > 1`)).rows;
    const deposits = (await sql.query(`SELECT id, user_id, amount::float8 AS amount FROM finance.transactions WHERE type = 'deposit' AND user_id = ANY($1)`, [userIds])).rows as { id: string; user_id: string; amount: number }[];
    const keys = (await sql.query(`SELECT key, response IS NOT NULL AS answered FROM finance.idempotency_keys WHERE user_id = ANY($1)`, [userIds])).rows;
    const events = (await sql.query(`SELECT event_id, outcome FROM finance.banking_provider_events WHERE event_id LIKE 'evt_replicas_%'`)).rows as { event_id: string; outcome: string }[];
    const jobs = (await sql.query(`SELECT kind, status, attempts FROM agents.jobs WHERE kind = 'agent_task' AND key = ANY($1)`, [taskIds])).rows as { kind: string; status: string; attempts: number }[];
    // a lease a killed replica held is taken over when it expires (the queues wake for it): none left long past it
    const stuck = (
      await sql.query(
        ["users", "finance", "agents"].map((schema) => `SELECT '${schema}' AS schema, kind FROM ${schema}.jobs WHERE status = 'running' AND locked_until < now() - interval '15 seconds'`).join(" UNION ALL "),
      )
    ).rows;

    const report = {
      startMs: started,
      loadMs,
      phases,
      requests: seen.requests,
      acknowledged: { users: acknowledged.users.size, deposits: acknowledged.deposits.size, tasks: acknowledged.tasks.size, events: acknowledged.events.size },
      automatedTasks: tasks.filter((t) => t.automated).length,
      retryable: seen.retryable,
      roundRobin: Object.fromEntries(TIERS.map((tier) => [tier, { redirected: balancers[tier].redirected, badGateway: balancers[tier].badGateway }])),
      taskAttempts: tasks.reduce<Record<number, number>>((acc, t) => ((acc[t.attempts] = (acc[t.attempts] ?? 0) + 1), acc), {}),
      replayed,
    };
    console.log(`replicas: ${JSON.stringify(report, null, 1)}`);
    // what the services logged about an unexpected answer, by its trace id
    const traces = seen.unexpected.flatMap((line) => line.match(/"trace_id":"(\w+)"/)?.[1] ?? []);
    if (traces.length) console.log(output.filter((line) => traces.some((trace) => line.includes(trace))).join(""));

    expect(seen.unexpected).toEqual([]);
    expect(acknowledged.users.size).toBeGreaterThan(0);
    // registrations: each acknowledged user once, and no subject registered twice
    expect(users.map((u) => u.id).sort()).toEqual(userIds.sort());
    expect(subjects).toEqual([]);
    // deposits: exactly the acknowledged ones (one transaction per Idempotency-Key), summing to the balances
    expect(deposits.map((d) => d.id).sort()).toEqual([...acknowledged.deposits.values()].map((d) => d.id).sort());
    expect(keys.filter((k) => !k.answered)).toEqual([]);
    const sum = (rows: { user_id: string; amount: number }[]) => rows.reduce<Record<string, number>>((acc, r) => ((acc[r.user_id] = (acc[r.user_id] ?? 0) + r.amount), acc), {});
    expect(sum(deposits)).toEqual(sum([...acknowledged.deposits.values()]));
    // agent tasks: one per Idempotency-Key, each ended; a run is started again only when a replica died under it
    expect(tasks.filter((t) => !t.automated).map((t) => t.id).sort()).toEqual(taskIds.sort());
    expect(tasks.filter((t) => t.status !== "completed")).toEqual([]);
    expect(tasks.filter((t) => t.attempts < 1 || t.attempts > 2)).toEqual([]);
    expect(jobs.filter((j) => j.status !== "succeeded")).toEqual([]);
    expect(stuck).toEqual([]);
    // webhook events: each delivered twice, recorded once
    expect(events.map((e) => e.event_id).sort()).toEqual([...acknowledged.events].sort());
    expect(events.filter((e) => e.outcome !== "no_op")).toEqual([]);
    expect(replayed).toEqual([200, 401]);
  }, 240_000);
});
