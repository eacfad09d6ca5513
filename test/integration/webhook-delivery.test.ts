import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import type { OutboxEvent, UserEnvironments } from "../../lib/outgoing-events.ts";
import { enableMetrics, registerWebhookQueue, registry } from "../../lib/metrics.ts";
import { newWebhookSecret, verifyStandardWebhook } from "../../lib/webhooks/standard-webhooks.ts";
import { createIdentityDb, type IdentityDb } from "../../subgraphs/identity/db.ts";
import { eventRelay } from "../../subgraphs/identity/events/event-relay.ts";
import { redeliverEvent, redeliverFailedEvents } from "../../subgraphs/identity/events/redeliver-events.ts";
import { webhookDelivery } from "../../subgraphs/identity/webhook-delivery/delivery-job.ts";
import type { SendOutcome } from "../../subgraphs/identity/webhook-delivery/send-webhook.ts";
import { capturingLogger } from "../support/log-capture.ts";

// Issue 29: the relay makes one delivery per subscribed endpoint with the event, and the delivery
// job applies the delivery rules on an injected clock.
let database: Database;
let db: IdentityDb;
const cipher = CardDataCipher.load(undefined, "memory://");
const { lines, logger } = capturingLogger("info");
let sequence = 0;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["identity"]);
  db = createIdentityDb(database);
});
// one database for the file: what an earlier test left owed is settled, so each job sees its own test's deliveries only
beforeEach(async () => {
  await db.webhookDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
});
afterAll(async () => {
  await db.$disconnect();
  await database.close();
});

async function endpoint(env: string, fields: { event_types?: string[]; enabled?: boolean; deleted?: boolean } = {}) {
  const secret = newWebhookSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      id: `whe_${env}_${++sequence}`,
      organisation_id: "org_d",
      environment_id: env,
      url: "https://hooks.example.com/in",
      event_types: fields.event_types ?? ["*"],
      enabled: fields.enabled ?? true,
      secret: cipher.seal(secret),
      ...(fields.deleted && { deleted_at: new Date() }),
    },
  });
  return { id: row.id, secret };
}

/** Relays `count` events of `type` in `env` through a one-batch outbox. */
async function relay(env: string, type = "user.created", count = 1): Promise<string[]> {
  const events: OutboxEvent[] = Array.from({ length: count }, () => {
    const n = ++sequence;
    return { id: String(n), event_id: `evt_${env}_${n}`, type, user_id: `usr_${n}`, environment_id: `org_d:${env}`, resource_type: "user", resource_id: `usr_${n}`, data: { id: `usr_${n}` }, created_at: Date.now() };
  });
  await relayBatch(events, async () => new Map());
  return events.map((event) => event.event_id);
}

/** One relay pass over a source answering `events` once, the users' environments from `environments`. */
async function relayBatch(events: OutboxEvent[], environments: UserEnvironments): Promise<void> {
  let pulled = false;
  const source = { producer: "finance", pull: async () => (pulled ? [] : ((pulled = true), events)), acknowledge: async () => {} };
  await eventRelay({ db, sources: [source], environments, logger }).run({ id: "j", kind: "event_relay", key: "event_relay", payload: {}, attempts: 1, max_attempts: 8 });
}

/** A clock the test moves, and a receiver answering from a script (the last answer repeats). */
function harness(answers: SendOutcome[], options: { perEndpoint?: number } = {}) {
  let at = new Date(Date.now() + 1000);
  const calls: { at: Date; url: string; body: string; headers: Record<string, string> }[] = [];
  const job = webhookDelivery({
    db,
    cipher,
    logger,
    now: () => at,
    random: () => 0.5, // no jitter: the schedule's own waits
    ...(options.perEndpoint && { perEndpoint: options.perEndpoint }),
    send: async (url, body, headers) => {
      calls.push({ at, url, body, headers });
      return answers[Math.min(calls.length - 1, answers.length - 1)]!;
    },
  });
  return { job, calls, now: () => at, set: (date: Date) => (at = date), advance: (ms: number) => (at = new Date(at.getTime() + ms)) };
}

const ok = { status: 200, retry_after: null, excerpt: "ok" };
const failing = { status: 500, retry_after: null, excerpt: "down" };

describe("the relay's deliveries", () => {
  it("makes one pending delivery per enabled, live endpoint of the event's environment subscribed to its type, once", async () => {
    const all = await endpoint("env_r");
    const typed = await endpoint("env_r", { event_types: ["user.created"] });
    await endpoint("env_r", { event_types: ["card.created"] });
    await endpoint("env_r", { enabled: false });
    await endpoint("env_r", { deleted: true });
    await endpoint("env_other");
    const [eventId] = await relay("env_r");
    const rows = await db.webhookDelivery.findMany({ where: { event_id: eventId! } });
    expect(rows.map((row) => row.endpoint_id).sort()).toEqual([all.id, typed.id].sort());
    expect(rows.every((row) => row.status === "pending" && row.attempts === 0)).toBe(true);
    const [kyc] = await relay("env_r", "user.kyc_status_changed");
    expect((await db.webhookDelivery.findMany({ where: { event_id: kyc! } })).map((row) => row.endpoint_id)).toEqual([all.id]);
  });

  it("asks once per batch for the environments of the users whose events came without one, and stores only those of organisation environments", async () => {
    const n = ++sequence;
    const event = (suffix: string, user_id: string, environment_id: string | null): OutboxEvent => ({
      id: `${n}${suffix}`,
      event_id: `evt_env_lookup_${n}_${suffix}`,
      type: "transaction.created",
      user_id,
      environment_id,
      resource_type: "transaction",
      resource_id: `txn_${suffix}`,
      data: {},
      created_at: Date.now(),
    });
    const batch = [event("1", "usr_org", null), event("2", "usr_org", null), event("3", "usr_default", null), event("4", "usr_gone", null), event("5", "usr_known", "org_d:env_k")];
    const asked: string[][] = [];
    await relayBatch(batch, async (userIds) => {
      asked.push(userIds);
      return new Map([["usr_org", "org_d:env_l"], ["usr_default", "default"]]);
    });
    expect(asked).toEqual([["usr_org", "usr_default", "usr_gone"]]);
    const stored = await db.event.findMany({ where: { event_id: { in: batch.map((e) => e.event_id) } }, orderBy: { event_id: "asc" } });
    expect(stored.map((row) => [row.event_id, row.org_id, row.env_id])).toEqual([
      [`evt_env_lookup_${n}_1`, "org_d", "env_l"],
      [`evt_env_lookup_${n}_2`, "org_d", "env_l"],
      [`evt_env_lookup_${n}_5`, "org_d", "env_k"],
    ]);
  });
});

describe("the delivery job", () => {
  it("delivers on the third attempt after two 500s, at the scheduled times, signed with the endpoint's secret", async () => {
    const target = await endpoint("env_a");
    const [eventId] = await relay("env_a");
    const { job, calls, now, advance } = harness([failing, failing, ok]);
    const t0 = now();
    expect(await job.deliverDue()).toBe(1);
    advance(4_999);
    expect(await job.deliverDue()).toBe(0);
    advance(1);
    expect(await job.deliverDue()).toBe(1);
    advance(299_999);
    expect(await job.deliverDue()).toBe(0);
    advance(1);
    expect(await job.deliverDue()).toBe(1);
    advance(86_400_000);
    expect(await job.deliverDue()).toBe(0);

    expect(calls.map((call) => call.at.getTime() - t0.getTime())).toEqual([0, 5_000, 305_000]);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { event_id_endpoint_id: { event_id: eventId!, endpoint_id: target.id } }, include: { attempt_rows: { orderBy: { id: "asc" } } } });
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3, first_attempt_at: t0, last_status: 200, last_error: null, delivered_at: new Date(t0.getTime() + 305_000) });
    expect(delivery.attempt_rows.map((row) => [row.attempted_at.getTime() - t0.getTime(), row.status_code, row.response_excerpt])).toEqual([
      [0, 500, "down"],
      [5_000, 500, "down"],
      [305_000, 200, "ok"],
    ]);
    // every attempt carries the event's envelope under the same webhook-id, signed at its own time
    for (const call of calls) {
      expect(call.headers["webhook-id"]).toBe(eventId);
      expect(call.headers["content-type"]).toBe("application/json");
      expect(verifyStandardWebhook(call.body, call.headers, target.secret, call.at)).toBe(true);
      expect(JSON.parse(call.body)).toMatchObject({ id: eventId, type: "user.created", environment_id: "org_d:env_a", resource: { type: "user" }, created_at: expect.any(Number) });
    }
    // one log line per attempt, without the secret
    const logged = lines.filter((line) => line.includes(eventId!) && line.includes("webhook delivery attempt"));
    expect(logged).toHaveLength(3);
    expect(logged.some((line) => line.includes(target.secret) || line.includes("webhook-signature"))).toBe(false);
  });

  it("disables the endpoint on 410 (reason gone) and attempts nothing more to it", async () => {
    const target = await endpoint("env_g");
    await relay("env_g", "user.created", 2);
    const { job, calls, advance } = harness([{ status: 410, retry_after: null, excerpt: "" }], { perEndpoint: 1 });
    expect(await job.deliverDue()).toBe(1);
    const first = calls[0]!.headers["webhook-id"];
    const second = (await db.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: target.id, NOT: { event_id: first! } } })).event_id;
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: false, disabled_reason: "gone" });
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: first! } })).toMatchObject({ status: "failed", attempts: 1, last_status: 410 });
    // the other event owed to it waits while it is disabled, and later events are not owed to it
    advance(86_400_000);
    expect(await job.deliverDue()).toBe(0);
    expect(calls).toHaveLength(1);
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: second! } })).toMatchObject({ status: "pending", attempts: 0 });
    const [later] = await relay("env_g");
    expect(await db.webhookDelivery.count({ where: { event_id: later! } })).toBe(0);
  });

  it("honours Retry-After on 503 when it asks for longer than the schedule, and keeps the schedule when it asks for less", async () => {
    await endpoint("env_ra");
    const [eventId] = await relay("env_ra");
    const { job, now, set } = harness([{ status: 503, retry_after: "120", excerpt: "" }, { status: 429, retry_after: "1", excerpt: "" }, ok]);
    const due = async () => (await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).next_attempt_at;
    await job.deliverDue();
    expect((await due()).getTime() - now().getTime()).toBe(120_000);
    set(await due());
    await job.deliverDue();
    // the second wait is the schedule's 5 min: a Retry-After never hurries it
    expect((await due()).getTime() - now().getTime()).toBe(300_000);
    set(await due());
    await job.deliverDue();
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("keeps at most perEndpoint attempts in flight to one endpoint", async () => {
    await endpoint("env_c");
    await relay("env_c", "user.created", 6);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { job, calls } = harness([ok], { perEndpoint: 4 });
    const slow = webhookDelivery({ db, cipher, logger, perEndpoint: 4, now: () => new Date(Date.now() + 1000), send: async (...args) => (calls.push({ at: new Date(), url: args[0], body: args[1], headers: args[2] }), await gate, ok) });
    const first = slow.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toHaveLength(4);
    // a second worker finds the endpoint full
    expect(await job.deliverDue()).toBe(0);
    release();
    expect(await first).toBe(4);
    expect(await job.deliverDue()).toBe(2);
  });

  it("fills a pass with other endpoints' deliveries rather than one endpoint's backlog", async () => {
    const busy = await endpoint("env_b1");
    const quiet = await endpoint("env_b2");
    await relay("env_b1", "user.created", 6);
    await relay("env_b2");
    const job = webhookDelivery({ db, cipher, logger, perEndpoint: 4, batch: 5, now: () => new Date(Date.now() + 1000), send: async () => ok });
    expect(await job.deliverDue()).toBe(5);
    const delivered = await db.webhookDelivery.groupBy({ by: ["endpoint_id"], where: { endpoint_id: { in: [busy.id, quiet.id] }, status: "delivered" }, _count: { _all: true } });
    expect(Object.fromEntries(delivered.map((row) => [row.endpoint_id, row._count._all]))).toEqual({ [busy.id]: 4, [quiet.id]: 1 });
  });

  it("attempts again, with the same webhook-id, a delivery whose worker died mid-attempt, once its claim has lapsed", async () => {
    await endpoint("env_k");
    const [eventId] = await relay("env_k");
    const at = new Date(Date.now() + 1000);
    // the first worker never hears back (killed while posting): its claim is all that is left
    const dying = webhookDelivery({ db, cipher, logger, now: () => at, send: () => new Promise<never>(() => {}) });
    void dying.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "pending", attempts: 0, locked_until: expect.any(Date) });
    const { job, calls, set } = harness([ok]);
    set(new Date(at.getTime() + 59_000));
    expect(await job.deliverDue()).toBe(0);
    set(new Date(at.getTime() + 60_000));
    expect(await job.deliverDue()).toBe(1);
    expect(calls.map((call) => call.headers["webhook-id"])).toEqual([eventId]);
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("gives up three days after the first attempt (failed)", async () => {
    await endpoint("env_f");
    const [eventId] = await relay("env_f");
    const { job, set, now } = harness([failing]);
    const t0 = now();
    for (let i = 0; i < 30; i++) {
      await job.deliverDue();
      const row = await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } });
      if (row.status !== "pending") break;
      set(row.next_attempt_at);
    }
    const row = await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } });
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(13);
    expect(now().getTime() - t0.getTime()).toBeGreaterThanOrEqual(3 * 86_400_000);
  });
});

describe("an endpoint failing for five days", () => {
  const DAY = 86_400_000;

  /** One new event at the harness's clock, attempted (the other deliveries due then too). */
  async function eventAttempted(env: string, h: { job: { deliverDue(): Promise<number> }; now(): Date }): Promise<string> {
    const [eventId] = await relay(env);
    await db.webhookDelivery.updateMany({ where: { event_id: eventId! }, data: { next_attempt_at: h.now() } });
    await h.job.deliverDue();
    return eventId!;
  }

  it("is disabled (failing) once every attempt has failed for five days, and the disabled event is stored and owed to the environment's other endpoints", async () => {
    const target = await endpoint("env_fail", { event_types: ["user.created"] });
    const watcher = await endpoint("env_fail", { event_types: ["webhook_endpoint.disabled"] });
    const h = harness([failing]);
    const t0 = h.now();
    await eventAttempted("env_fail", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: true, failing_since: t0 });
    h.set(new Date(t0.getTime() + 5 * DAY - 1000));
    await eventAttempted("env_fail", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: true, disabled_reason: null, failing_since: t0 });
    h.set(new Date(t0.getTime() + 5 * DAY));
    await eventAttempted("env_fail", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: false, disabled_reason: "failing" });
    expect(lines.some((line) => line.includes("webhook endpoint disabled") && line.includes(target.id))).toBe(true);

    const notice = await db.event.findFirstOrThrow({ where: { type: "webhook_endpoint.disabled", resource_id: target.id }, include: { deliveries: true } });
    expect(notice).toMatchObject({
      org_id: "org_d",
      env_id: "env_fail",
      resource_type: "webhook_endpoint",
      data: { id: target.id, url: "https://hooks.example.com/in", disabled_reason: "failing", failing_since: t0.getTime(), disabled_at: h.now().getTime() },
    });
    expect(notice.deliveries.map((delivery) => delivery.endpoint_id)).toEqual([watcher.id]);
  });

  it("starts its five days again after a delivery succeeds", async () => {
    const target = await endpoint("env_flaky", { event_types: ["user.created"] });
    let answer: SendOutcome = failing;
    let at = new Date(Date.now() + 1000);
    const h = { job: webhookDelivery({ db, cipher, logger, now: () => at, random: () => 0.5, send: async () => answer }), now: () => at, set: (date: Date) => (at = date) };
    const t0 = h.now();
    await eventAttempted("env_flaky", h);
    h.set(new Date(t0.getTime() + DAY));
    answer = ok;
    await eventAttempted("env_flaky", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ failing_since: null });
    answer = failing;
    h.set(new Date(t0.getTime() + 2 * DAY));
    await eventAttempted("env_flaky", h);
    h.set(new Date(t0.getTime() + 6 * DAY));
    await eventAttempted("env_flaky", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: true, failing_since: new Date(t0.getTime() + 2 * DAY) });
    h.set(new Date(t0.getTime() + 7 * DAY));
    await eventAttempted("env_flaky", h);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ enabled: false, disabled_reason: "failing" });
  });

  it("announces a 410's disable (gone) the same way", async () => {
    const target = await endpoint("env_gone", { event_types: ["user.created"] });
    await relay("env_gone");
    await harness([{ status: 410, retry_after: null, excerpt: "" }]).job.deliverDue();
    expect(await db.event.findFirstOrThrow({ where: { type: "webhook_endpoint.disabled", resource_id: target.id } })).toMatchObject({ data: { disabled_reason: "gone", failing_since: null } });
  });
});

describe("metrics", () => {
  /** The value of one series of the scrape (0 when it is not there yet). */
  async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
    for (const line of (await registry.metrics()).split("\n")) {
      if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
      if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
    return 0;
  }

  it("count attempts by result, failures by answer, settled deliveries and latency, and report the queue's depth and age", async () => {
    enableMetrics();
    await endpoint("env_m");
    const h = harness([failing, { error: "connect ECONNREFUSED" }, ok]);
    const unregister = registerWebhookQueue(h.job.queueStats);
    try {
      const series = {
        delivered: ["platform_outgoing_webhook_attempts_total", { result: "delivered" }],
        failed: ["platform_outgoing_webhook_attempts_total", { result: "failed" }],
        status5xx: ["platform_outgoing_webhook_attempt_failures_total", { answer: "5xx" }],
        noAnswer: ["platform_outgoing_webhook_attempt_failures_total", { answer: "none" }],
        settled: ["platform_outgoing_webhook_deliveries_total", { outcome: "delivered" }],
        timedDelivered: ["platform_outgoing_webhook_attempt_duration_seconds_count", { result: "delivered" }],
        timedFailed: ["platform_outgoing_webhook_attempt_duration_seconds_count", { result: "failed" }],
      } as const;
      const read = async () => Object.fromEntries(await Promise.all(Object.entries(series).map(async ([key, [name, labels]]) => [key, await sample(name, labels)] as const)));
      const before = await read();
      await relay("env_m");
      // due since it was stored; the harness's clock runs a second ahead
      expect(await sample("platform_outgoing_webhook_due_deliveries")).toBe(1);
      expect(await sample("platform_outgoing_webhook_queue_age_seconds")).toBeGreaterThanOrEqual(0.5);
      await h.job.deliverDue();
      h.advance(5_000);
      await h.job.deliverDue();
      h.advance(300_000);
      await h.job.deliverDue();
      const after = await read();
      expect(Object.fromEntries(Object.keys(series).map((key) => [key, after[key]! - before[key]!]))).toEqual({ delivered: 1, failed: 2, status5xx: 1, noAnswer: 1, settled: 1, timedDelivered: 1, timedFailed: 2 });
      expect(await sample("platform_outgoing_webhook_due_deliveries")).toBe(0);
      expect(await sample("platform_outgoing_webhook_queue_age_seconds")).toBe(0);
    } finally {
      unregister();
    }
  });
});

describe("redelivery", () => {
  const owner = { kind: "dashboard", issuer: "https://dash.example", subject: "redeliverer" } as const;
  beforeAll(async () => {
    await db.member.create({ data: { id: "mem_redeliverer", organisation_id: "org_d", issuer: owner.issuer, sub: owner.subject, role: "owner" } });
  });

  it("starts a new round on the delivery given up: attempted now, then on the schedule from its start, the earlier attempts kept", async () => {
    const target = await endpoint("env_rd");
    const [eventId] = await relay("env_rd");
    const h = harness([failing]);
    for (let i = 0; i < 30; i++) {
      await h.job.deliverDue();
      const row = await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } });
      if (row.status !== "pending") break;
      h.set(row.next_attempt_at);
    }
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "failed", attempts: 13 });
    h.advance(86_400_000);
    expect(await redeliverFailedEvents(db, owner, "org_d", { since: new Date(0), endpoint_id: target.id }, h.now())).toEqual({ queued: 1 });
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "pending", attempts: 0, first_attempt_at: null, next_attempt_at: h.now() });
    const t0 = h.now();
    expect(await h.job.deliverDue()).toBe(1);
    // the new round's first wait is the schedule's first (5 s), not the tenth hour of the old one
    expect((await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).next_attempt_at.getTime() - t0.getTime()).toBe(5_000);
    const detail = await redeliverEvent(db, owner, "org_d", eventId!, {}, h.now());
    expect(detail.deliveries[0]).toMatchObject({ status: "pending", attempt_count: 14, next_attempt_at: h.now() });
  });

  it("leaves a delivery being attempted to its attempt", async () => {
    await endpoint("env_rf");
    const [eventId] = await relay("env_rf");
    const at = new Date(Date.now() + 1000);
    let answer!: (outcome: SendOutcome) => void;
    const inFlight = webhookDelivery({ db, cipher, logger, now: () => at, send: () => new Promise<SendOutcome>((resolve) => (answer = resolve)) });
    const pass = inFlight.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const claimed = await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } });
    await redeliverEvent(db, owner, "org_d", eventId!, {}, at);
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toEqual(claimed);
    answer(ok);
    await pass;
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: eventId! } })).toMatchObject({ status: "delivered", attempts: 1 });
  });
});
