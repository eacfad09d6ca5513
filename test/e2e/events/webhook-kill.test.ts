import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { spawnPlatform, type PlatformProcess } from "../../support/platform-process.ts";
import { registrationBody } from "../../support/registration.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 29: kill -9 of the server between commit and delivery loses nothing. The process is
// `npm start` itself (dist/start.js) on PostgreSQL (e2e-postgres) or on-disk PGlite (e2e). Events
// are committed while the receiver answers 503 (users registered: the users outbox, relayed; and
// sandbox test events: stored with their deliveries), the process is killed at once, the receiver
// comes back, the process restarts: every committed event arrives, each once with a 2xx.
const ORG = "org_kill";
const ENV = "env_kill";
/** what the receiver subscribes to: not the Safe deployments' events, which the restart goes on to make */
const TYPES = ["user.created", "user.kyc_status_changed"];
const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
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

describe("outgoing events across a kill -9", () => {
  it(`delivers every committed event once after a restart (${onPostgres ? "PostgreSQL" : "on-disk PGlite"})`, { timeout: 240_000 }, async () => {
    let up = false;
    /** webhook-id of each delivery the receiver accepted (2xx), in arrival order */
    const accepted: string[] = [];
    let refused = 0;
    const receiver: Server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (!up) {
          refused++;
          return res.writeHead(503).end("down");
        }
        accepted.push(String(req.headers["webhook-id"]));
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

    const dashboard = await TestIssuer.start();
    const users = await TestIssuer.start();
    cleanups.push(() => dashboard.stop(), () => users.stop());
    const databaseUrl = await freshDatabaseUrl();
    const dataDir = databaseUrl ? "memory://" : mkdtempSync(join(tmpdir(), "webhook-kill-"));
    if (!databaseUrl) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
      DATA_DIR: dataDir,
      // sealed endpoint secrets must open after the restart, also when DATA_DIR keeps nothing
      CARD_DATA_KEY: randomBytes(32).toString("base64"),
      AUTH_PROVIDERS: "[]",
      DASHBOARD_AUTH: JSON.stringify([{ name: "dashboard", issuer: dashboard.issuer, jwks_uri: dashboard.jwksUri }]),
      IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Kill Ltd", contact_email: "ops@kill.test" }, environment: { id: ENV, name: "Kill" }, members: [{ sub: "kill-owner" }] }),
      JWKS_ALLOW_LOOPBACK_HTTP: "true",
      // the standing relay and delivery jobs the killed process held are taken over this soon
      JOB_LEASE_MS: "2000",
      // a loaded machine's lag right after start would shed the test's requests (as startTestPlatform does)
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
    };
    const first = track(await spawnPlatform(env));
    const owner = await dashboard.sign({ sub: "kill-owner" });
    const identity = (urls: PlatformProcess["urls"], path: string, init: { method?: string; json?: unknown } = {}) =>
      fetch(`${urls.identity}${path}`, {
        method: init.method ?? "GET",
        headers: { authorization: `Bearer ${owner}`, ...(init.json !== undefined && { "content-type": "application/json" }) },
        ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
      });

    const provider = { name: "provider_a", issuer: users.issuer, jwks_uri: users.jwksUri };
    const patched = await identity(first.urls, `/v0/organisation/${ORG}/environments/${ENV}`, { method: "PATCH", json: { auth_providers: [provider] } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const endpoint = await identity(first.urls, `/v0/organisation/${ORG}/environments/${ENV}/webhook-endpoints`, { method: "POST", json: { url: receiverUrl, event_types: TYPES } });
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);

    // committed while the receiver is down: registrations (user.created through the users outbox) and test events
    const environment = `${ORG}:${ENV}`;
    const registered: string[] = [];
    const emitted: string[] = [];
    for (let i = 0; i < 4; i++) {
      const jwt = await users.sign({ sub: `kill-user-${i}` });
      const response = await fetch(`${first.urls.platform}/v0/user/`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-platform-jwt": jwt, "x-platform-orgid": environment },
        body: JSON.stringify(await registrationBody(jwt, { environment_id: environment })),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      registered.push((await response.json()).id);
      const event = await identity(first.urls, `/v0/sandbox/organisation/${ORG}/environments/${ENV}/events`, { method: "POST", json: { type: "user.kyc_status_changed" } });
      expect(event.status).toBe(201);
      emitted.push((await event.json()).id);
    }
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(accepted).toEqual([]);

    up = true;
    const second = track(await spawnPlatform(env, first.urls));
    // everything the organisation has, once the relay has caught up with the users outbox
    const events = async () => {
      const response = await identity(second.urls, `/v0/organisation/${ORG}/events?limit=200`);
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { items: { id: string; type: string; resource: { id: string } }[] }).items;
    };
    let stored = await events();
    for (const until = Date.now() + 60_000; stored.filter((e) => e.type === "user.created").length < registered.length && Date.now() < until; stored = await events()) await sleep(250);
    expect(stored.filter((e) => e.type === "user.created").map((e) => e.resource.id).sort()).toEqual([...registered].sort());
    expect(stored.map((e) => e.id)).toEqual(expect.arrayContaining(emitted));
    const committed = stored.filter((e) => TYPES.includes(e.type)).map((e) => e.id).sort();
    expect(committed).toHaveLength(registered.length + emitted.length);

    // a delivery claimed by the killed process waits for its claim (60 s) to lapse, so allow for that
    for (const until = Date.now() + 120_000; new Set(accepted).size < committed.length && Date.now() < until; ) await sleep(250);
    await sleep(2_500);
    expect([...accepted].sort(), `refused while down: ${refused}`).toEqual(committed);

    second.child.kill("SIGTERM");
    expect((await second.exited).code, second.output().slice(-2000)).toBe(0);
  });
});
