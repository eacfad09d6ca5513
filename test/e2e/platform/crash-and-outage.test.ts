import { exportJWK, generateKeyPair } from "jose";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signSandboxToken } from "../../../lib/auth/sandbox-issuer.ts";
import { SigningKey } from "../../../lib/auth/signing-key.ts";
import { DEFAULT_DATABASE_TIMEOUTS, STATEMENT_GRACE_MS } from "../../../lib/db/database-timeouts.ts";
import { userWithWallet } from "../../support/finance.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { spawnPlatform, type PlatformProcess } from "../../support/platform-process.ts";
import { startPostgresCluster } from "../../support/postgres.ts";
import { startTestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Crashes and outages, each bounded in requests and time, on loopback only. A (re)started
// process is `npm start` itself (bin/start.ts); the database is PostgreSQL where it can go away.
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function track(process: PlatformProcess): PlatformProcess {
  cleanups.push(async () => {
    if (process.child.exitCode === null && process.child.signalCode === null) {
      process.child.kill("SIGKILL");
      await process.exited;
    }
  });
  return process;
}

async function signingKeyEnv(): Promise<{ jwk: Record<string, unknown>; key: SigningKey }> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: "ES256" };
  return { jwk, key: await SigningKey.fromJwk(jwk) };
}

describe("crashes and outages", () => {
  it.skipIf(!onPostgres)("kill -9 while Safe deployments run: after a restart each completes exactly once", { timeout: 240_000 }, async () => {
    const databaseUrl = (await freshDatabaseUrl())!;
    const { jwk, key } = await signingKeyEnv();
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: "memory://", SIGNING_KEY: JSON.stringify(jwk), AUTH_PROVIDERS: "[]", SAFE_DEPLOY_DELAY_MS: "4000", JOB_LEASE_MS: "2000" };
    const first = track(await spawnPlatform(env));
    const users: string[] = [];
    for (let i = 0; i < 6; i++) {
      const account = newAccount();
      const jwt = await signSandboxToken(key, first.urls.platform, { sub: `crash-${i}`, wallet: account.address });
      const response = await fetch(`${first.urls.platform}/v0/user/`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ primary_eoa_address: account.address, chain_id: 8453 }) });
      expect(response.status, await response.clone().text()).toBe(201);
      users.push((await response.json()).id);
    }
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const safes = async () =>
      (await db.query<{ user_id: string; status: string; address: string | null }>(`SELECT user_id, safe_creation_status AS status, address FROM users.wallets WHERE type = 'Safe' AND deleted_at IS NULL ORDER BY user_id`)).rows;
    expect((await safes()).filter((safe) => safe.status === "processing")).toHaveLength(6);

    const second = track(await spawnPlatform(env, first.urls));
    for (const until = Date.now() + 60_000; (await safes()).some((safe) => safe.status !== "completed") && Date.now() < until; ) await sleep(250);
    const deployed = await safes();
    // one Safe per user, deployed (completed) at an address; one deployment asked and one job, succeeded
    expect(deployed.map((safe) => safe.user_id).sort()).toEqual([...users].sort());
    for (const safe of deployed) expect(safe).toMatchObject({ status: "completed", address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    const requests = (await db.query<{ user_id: string; n: number }>(`SELECT user_id, count(*)::int AS n FROM users.safe_deployment_requests GROUP BY user_id`)).rows;
    expect(requests.every((row) => row.n === 1) && requests.length === 6).toBe(true);
    const jobs = (await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM users.jobs WHERE kind = 'safe_deployment' GROUP BY status`)).rows;
    expect(jobs).toEqual([{ status: "succeeded", n: 6 }]);

    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  });

  it.skipIf(!onPostgres)("PostgreSQL stops under load: quick 503 ProblemDetails (never a 500 or a hang), /health 503, and recovery without a restart", { timeout: 120_000 }, async () => {
    const cluster = await startPostgresCluster();
    cleanups.push(() => cluster.destroy());
    const platform = await startTestPlatform({ DATABASE_URL: cluster.adminUrl, LOG_LEVEL: process.env.DEBUG_OUTAGE ? "error" : "silent" });
    cleanups.push(() => platform.stop());
    const { jwt } = await platform.createUser();

    type Result = { phase: string; status?: number; ms: number; error_code?: string; type?: string | null; failure?: string };
    const results: Result[] = [];
    let phase = "up";
    let done = false;
    const worker = async () => {
      while (!done) {
        const started = Date.now();
        const at = phase;
        try {
          const response = await fetch(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": jwt }, signal: AbortSignal.timeout(15_000) });
          const body = (await response.json().catch(() => ({}))) as { error_code?: string };
          results.push({ phase: at, status: response.status, ms: Date.now() - started, error_code: body.error_code, type: response.headers.get("content-type") });
        } catch (error) {
          results.push({ phase: at, ms: Date.now() - started, failure: String(error) });
        }
        await sleep(20);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await sleep(1_000);
    phase = "down";
    await cluster.stop();
    await sleep(2_500);
    const health = await fetch(`${platform.urls.platform}/health`);
    expect(health.status).toBe(503);
    phase = "recovering";
    await cluster.start();
    for (let i = 0; i < 100 && (await fetch(`${platform.urls.platform}/health`)).status !== 200; i++) await sleep(200);
    phase = "up again";
    await sleep(1_500);
    done = true;
    await Promise.all(workers);

    const summary = JSON.stringify(results.map((r) => [r.phase, r.status ?? r.failure, r.error_code, r.ms]));
    expect(results.filter((r) => r.failure), summary).toEqual([]);
    for (const r of results) {
      expect([200, 503], summary).toContain(r.status);
      if (r.status === 503) expect([r.error_code, r.type], summary).toEqual(["GEN-503-001", expect.stringContaining("application/problem+json")]);
      // nothing waits for the database longer than its connect timeout
      expect(r.ms, summary).toBeLessThan(6_000);
    }
    expect(results.some((r) => r.phase === "down" && r.status === 503), summary).toBe(true);
    const after = results.filter((r) => r.phase === "up again");
    expect(after.length, summary).toBeGreaterThan(0);
    expect(after.every((r) => r.status === 200), summary).toBe(true);
  });

  it.skipIf(!onPostgres)(
    "PostgreSQL stops, then freezes (SIGSTOP), under a light load: every answer within the documented deadline, every 503 with Retry-After, /health within 1 s, no deposit lost or doubled, and no restart needed",
    { timeout: 180_000 },
    async () => {
      const cluster = await startPostgresCluster();
      cleanups.push(() => cluster.destroy());
      const platform = await startTestPlatform({ DATABASE_URL: cluster.adminUrl, LOG_LEVEL: process.env.DEBUG_OUTAGE ? "error" : "silent" });
      cleanups.push(() => platform.stop());
      const user = await userWithWallet(platform);
      // README, Outages: a connection, one statement and its grace, and a second for the rate-limit store
      const deadlineMs = DEFAULT_DATABASE_TIMEOUTS.connectMs + DEFAULT_DATABASE_TIMEOUTS.statementMs + STATEMENT_GRACE_MS + 1_000;

      type Answer = { what: string; phase: string; status?: number; ms: number; retryAfter?: string | null; error_code?: string; media?: string | null; id?: string; failure?: string };
      const answers: Answer[] = [];
      let phase = "up";
      let done = false;
      const call = async (what: string, path: string, init: Parameters<typeof platform.api>[1] = {}): Promise<Answer> => {
        const at = phase;
        const started = Date.now();
        let answer: Answer;
        try {
          const response = await platform.api(path, { ...init, signal: AbortSignal.timeout(30_000) });
          const body = (await response.json().catch(() => ({}))) as { error_code?: string; id?: string };
          answer = { what, phase: at, status: response.status, ms: Date.now() - started, retryAfter: response.headers.get("retry-after"), error_code: body.error_code, media: response.headers.get("content-type"), id: body.id };
        } catch (error) {
          answer = { what, phase: at, ms: Date.now() - started, failure: String(error) };
        }
        answers.push(answer);
        return answer;
      };
      // each deposit has its own Idempotency-Key; what it was answered, by key
      const deposits = new Map<string, Answer>();
      const deposit = (key: string) =>
        call("deposit", "/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, headers: { "idempotency-key": key }, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "1" } });
      const depositor = async (worker: number) => {
        for (let n = 0; !done; n++) {
          const key = `outage-${worker}-${n}`;
          deposits.set(key, await deposit(key));
          await sleep(100);
        }
      };
      const reader = async () => {
        for (let n = 0; !done; n++) {
          await call(n % 2 ? "feed" : "balance", n % 2 ? "/v0/transactions" : `/v0/wallets/${user.wallet_id}/assets`, { jwt: user.jwt });
          await sleep(100);
        }
      };
      const healthPoller = async () => {
        while (!done) {
          await call("health", "/health");
          await sleep(250);
        }
      };
      const healthy = async () => {
        for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) if ((await fetch(`${platform.urls.platform}/health`)).status === 200) return;
        throw new Error("/health did not come back");
      };
      const load = [depositor(0), depositor(1), depositor(2), reader(), healthPoller()];

      await sleep(1_500);
      phase = "stopped";
      await cluster.stop();
      await sleep(3_000);
      phase = "restarting";
      await cluster.start();
      await healthy();
      phase = "up between";
      await sleep(1_500);
      phase = "frozen";
      cluster.freeze();
      // longer than the deadline: requests in flight at the freeze must give up while it lasts
      await sleep(20_000);
      phase = "thawing";
      cluster.thaw();
      await healthy();
      phase = "up again";
      await sleep(2_000);
      done = true;
      await Promise.all(load);

      const by = (what: string, at: string) => answers.filter((a) => a.what === what && a.phase === at);
      const timings = (list: Answer[]) => (list.length ? `${list.length} answers, max ${Math.max(...list.map((a) => a.ms))} ms` : "none");
      const summary = JSON.stringify(answers.map((a) => [a.what, a.phase, a.status ?? a.failure, a.error_code, a.retryAfter, a.ms]));
      // measured, for the record (DEBUG_OUTAGE=1 to see them)
      if (process.env.DEBUG_OUTAGE)
        for (const at of ["stopped", "frozen"]) for (const what of ["deposit", "balance", "feed", "health"]) console.log(`${at} ${what}: ${timings(by(what, at))}`);

      expect(answers.filter((a) => a.failure), summary).toEqual([]);
      for (const a of answers) {
        expect([200, 201, 503], summary).toContain(a.status);
        expect(a.ms, summary).toBeLessThan(a.what === "health" ? 1_000 : deadlineMs);
        if (a.status === 503) {
          expect([a.error_code, a.media], summary).toEqual(["GEN-503-001", expect.stringContaining("application/problem+json")]);
          expect(a.retryAfter, summary).toMatch(/^[1-9]\d*$/);
        }
      }
      for (const at of ["stopped", "frozen"]) {
        expect(by("health", at).some((a) => a.status === 503), summary).toBe(true);
        expect(by("deposit", at).some((a) => a.status === 503), summary).toBe(true);
      }
      for (const what of ["deposit", "balance", "feed", "health"]) {
        expect(by(what, "up again").length, summary).toBeGreaterThan(0);
        expect(by(what, "up again").every((a) => a.status === 200 || a.status === 201), summary).toBe(true);
      }

      // nothing lost or doubled: every key, retried now, answers one deposit (an acknowledged one its
      // own again), and the ledger holds exactly one per key
      for (const [key, first] of deposits) {
        const again = await deposit(key);
        expect(again.status, `${key}: ${JSON.stringify(again)}`).toBe(201);
        if (first.status === 201) expect(again.id, key).toBe(first.id);
      }
      const db = new pg.Client({ connectionString: cluster.adminUrl });
      await db.connect();
      cleanups.push(() => db.end());
      const booked = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM finance.transactions WHERE user_id = $1 AND type = 'deposit'`, [user.id]);
      expect(booked.rows[0]!.n).toBe(deposits.size);

      // the job runner carries on too: a new user's Safe deployment completes
      const late = await platform.createUser();
      let safe: string | undefined;
      for (const until = Date.now() + 30_000; safe !== "completed" && Date.now() < until; await sleep(200))
        safe = ((await (await platform.api("/v0/user/me", { jwt: late.jwt })).json()) as { safe_creation_status?: string }).safe_creation_status;
      expect(safe).toBe("completed");
    },
  );

  it("SIGTERM under load: requests in flight finish, new ones are refused, the process exits in time", { timeout: 180_000 }, async () => {
    // a slow identity provider keeps every request waiting on its keys while the signal arrives
    const issuer = await TestIssuer.start();
    cleanups.push(() => issuer.stop());
    issuer.jwksDelayMs = 3_000;
    const databaseUrl = await freshDatabaseUrl();
    const platform = track(
      await spawnPlatform({
        DATA_DIR: "memory://",
        ...(databaseUrl && { DATABASE_URL: databaseUrl }),
        AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
        JWKS_ALLOW_LOOPBACK_HTTP: "true",
        SHUTDOWN_TIMEOUT_MS: "10000",
      }),
    );
    const jwt = await issuer.sign({ sub: "sigterm" });
    const inFlight = Array.from({ length: 20 }, () =>
      fetch(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": jwt } }).then(async (response) => ({ status: response.status, body: await response.json() })),
    );
    // the first request is waiting on the keys; give the others a moment to arrive too
    for (const until = Date.now() + 10_000; issuer.jwksRequests === 0 && Date.now() < until; ) await sleep(20);
    await sleep(300);
    const signalled = Date.now();
    platform.child.kill("SIGTERM");
    await sleep(300);
    // after the signal: no new connection is taken (refused), or one kept alive is answered 503 at once
    const late = await fetch(`${platform.urls.platform}/health`).then(
      async (response) => ({ status: response.status, body: await response.json() }),
      (error: Error) => ({ refused: String((error.cause as { code?: string } | undefined)?.code ?? error) }),
    );
    if ("status" in late) expect(late).toMatchObject({ status: 503, body: { error_code: "GEN-503-003" } });
    else expect(late.refused).toMatch(/ECONNREFUSED|ECONNRESET|other side closed/);

    const answers = await Promise.all(inFlight);
    // each was answered in full: the JWT verified once the keys came, and no user exists for it
    for (const answer of answers) expect(answer).toMatchObject({ status: 404, body: { error_code: "USR-404-001" } });
    const exit = await platform.exited;
    expect(exit.code, platform.output().slice(-3000)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  });
});
