import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import type { JobHandler, JobOutcome } from "../../../lib/jobs/job-queue.ts";
import type { Logger } from "../../../lib/logger.ts";
import { recordOutgoingWebhookAttempt } from "../../../lib/metrics.ts";
import { tracedWork } from "../../../lib/tracing.ts";
import { signStandardWebhook } from "../../../lib/webhooks/standard-webhooks.ts";
import type { IdentityDb } from "../db.ts";
import { envelope } from "../events/organisation-events.ts";
import { signingSecrets } from "../webhook-endpoints/webhook-secrets.ts";
import { recordEndpointHealth } from "./endpoint-health.ts";
import { ATTEMPT_TIMEOUT_MS, attemptVerdict, nextAttemptAt } from "./delivery-schedule.ts";
import type { SendOutcome, SendWebhook } from "./send-webhook.ts";

/** The standing job that POSTs due deliveries to their endpoints (one row, kept; it asks to run again after each pass). */
export const WEBHOOK_DELIVERY_JOB = "webhook_delivery";
const POLL_MS = 1000;
/** Deliveries claimed per pass, attempted concurrently. */
const BATCH = 16;
/** The most attempts in flight to one endpoint at once, across workers. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/** A claim outlives the attempt's timeout; a worker killed mid-attempt leaves it to be claimed again after this. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 50_000;
const ERROR_CHARS = 500;

type Tx = Parameters<Parameters<IdentityDb["$transaction"]>[0]>[0];

export interface WebhookQueueStats {
  due: number;
  oldest_due_at: Date | null;
  now: Date;
}

export interface WebhookDeliveryOptions {
  db: IdentityDb;
  /** opens the endpoints' sealed secrets */
  cipher: CardDataCipher;
  send: SendWebhook;
  logger: Logger;
  /** the clock the schedule runs on (tests move it) */
  now?: () => Date;
  /** the schedule's jitter, in [0, 1) */
  random?: () => number;
  perEndpoint?: number;
  batch?: number;
}

/**
 * Delivers the outgoing events (issue 29): claims due pending deliveries of enabled endpoints (at
 * most `perEndpoint` in flight to one endpoint), POSTs each event's envelope signed with every
 * secret the endpoint signs with, records the attempt and applies the delivery rules: a 2xx
 * delivers, 410 disables the endpoint ("gone"), anything else is tried again per the schedule
 * (not before a Retry-After) until three days after the first attempt, then `failed`.
 * At-least-once: a worker that dies after the POST leaves the claim to lapse and the event is sent again with the same `webhook-id`.
 */
export function webhookDelivery(options: WebhookDeliveryOptions): JobHandler & { deliverDue(): Promise<number>; queueStats(): Promise<WebhookQueueStats> } {
  const { db, cipher, send, logger } = options;
  const now = options.now ?? (() => new Date());
  const batch = options.batch ?? BATCH;
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT_CONCURRENCY;

  /** One pass: claims what is due and attempts it; answers how many were claimed. */
  async function deliverDue(): Promise<number> {
    const claimed = await db.$transaction((tx) => claim(tx, now()));
    // nothing due: the claim was a poll, and polls are not traced
    if (claimed.length === 0) return 0;
    // one delivery's trouble (the database away mid-attempt) leaves its claim to lapse; the others go on
    await tracedWork(() => Promise.all(claimed.map((id) => attempt(id).catch((error: unknown) => logger.warn({ err: error, delivery_id: id }, "webhook delivery: attempt not recorded; retrying after the claim lapses")))));
    return claimed.length;
  }

  async function claim(tx: Tx, at: Date): Promise<string[]> {
    // at most perEndpoint of each endpoint's oldest due deliveries are candidates, so one endpoint's backlog cannot fill the batch
    const due = await tx.$queryRawUnsafe<{ id: string; endpoint_id: string }[]>(
      `SELECT d.id, d.endpoint_id FROM "identity"."webhook_deliveries" d
       WHERE d.id IN (
         SELECT id FROM (
           SELECT c.id, row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS rank
           FROM "identity"."webhook_deliveries" c
           JOIN "identity"."webhook_endpoints" e ON e.id = c.endpoint_id AND e.enabled AND e.deleted_at IS NULL
           WHERE c.status = 'pending' AND c.next_attempt_at <= $1 AND (c.locked_until IS NULL OR c.locked_until <= $1)
         ) ranked WHERE rank <= $3)
       ORDER BY d.next_attempt_at, d.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      at,
      batch,
      perEndpoint,
    );
    if (due.length === 0) return [];
    const endpointIds = [...new Set(due.map((row) => row.endpoint_id))].sort();
    // claims for one endpoint take turns, so two workers cannot both see room for the same slot
    await tx.$queryRawUnsafe(`SELECT id FROM "identity"."webhook_endpoints" WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`, endpointIds);
    const inFlight = await tx.webhookDelivery.groupBy({ by: ["endpoint_id"], where: { endpoint_id: { in: endpointIds }, status: "pending", locked_until: { gt: at } }, _count: { _all: true } });
    const room = new Map(endpointIds.map((id) => [id, perEndpoint - (inFlight.find((row) => row.endpoint_id === id)?._count._all ?? 0)]));
    const chosen = due.filter((row) => {
      const left = room.get(row.endpoint_id)!;
      room.set(row.endpoint_id, left - 1);
      return left > 0;
    });
    if (chosen.length === 0) return [];
    const ids = chosen.map((row) => row.id);
    await tx.webhookDelivery.updateMany({ where: { id: { in: ids } }, data: { locked_until: new Date(at.getTime() + CLAIM_MS) } });
    return ids;
  }

  async function attempt(id: string): Promise<void> {
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id }, include: { event: true } });
    const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: delivery.endpoint_id } });
    const started = now();
    const body = JSON.stringify({ ...envelope(delivery.event), created_at: delivery.event.created_at.getTime() });
    const headers = {
      ...signStandardWebhook(delivery.event_id, Math.floor(started.getTime() / 1000), body, signingSecrets(cipher, endpoint, started)),
      "content-type": "application/json",
      "user-agent": "platform-webhooks/1",
    };
    const clock = performance.now();
    let outcome: SendOutcome;
    try {
      outcome = await send(endpoint.url, body, headers);
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    }
    const latency_ms = Math.round(performance.now() - clock);
    const finished = now();
    const verdict = attemptVerdict(outcome, finished);
    const attempts = delivery.attempts + 1;
    const first_attempt_at = delivery.first_attempt_at ?? started;
    const error = "error" in outcome ? outcome.error.slice(0, ERROR_CHARS) : null;
    const status_code = "error" in outcome ? null : outcome.status;
    const next = verdict.kind === "retry" ? nextAttemptAt({ attempts, first_attempt_at, now: finished, retry_after_ms: verdict.retry_after_ms, ...(options.random && { random: options.random }) }) : null;
    const status = verdict.kind === "delivered" ? "delivered" : verdict.kind === "gone" || next === null ? "failed" : "pending";
    const disabled = await db.$transaction(async (tx) => {
      await tx.webhookDeliveryAttempt.create({
        data: { delivery_id: id, attempted_at: started, status_code, latency_ms, response_excerpt: "error" in outcome ? null : outcome.excerpt, error },
      });
      // a delivery settled meanwhile (its endpoint deleted) stays settled
      await tx.webhookDelivery.updateMany({
        where: { id, status: "pending" },
        data: {
          status,
          attempts,
          first_attempt_at,
          locked_until: null,
          last_status: status_code,
          last_error: error,
          ...(next && { next_attempt_at: next }),
          ...(status === "delivered" && { delivered_at: finished }),
        },
      });
      // 410 (the receiver asked never to be called again) or five days of failures stop the endpoint; its pending deliveries wait for it to be enabled again
      return recordEndpointHealth(tx, endpoint, verdict.kind === "delivered" || verdict.kind === "gone" ? verdict.kind : "failed", { started, finished });
    });
    if (disabled) logger.warn({ endpoint_id: endpoint.id, disabled_reason: disabled }, "webhook endpoint disabled");
    recordOutgoingWebhookAttempt(status_code, latency_ms / 1000, status === "pending" ? null : status);
    logger.info(
      { delivery_id: id, event_id: delivery.event_id, event_type: delivery.event.type, endpoint_id: endpoint.id, attempt: attempts, status_code, latency_ms, error, outcome: status, next_attempt_at: next?.toISOString() ?? null },
      "webhook delivery attempt",
    );
  }

  /** For /metrics: the due pending deliveries of enabled endpoints, and when the oldest fell due. */
  async function queueStats(): Promise<WebhookQueueStats> {
    const at = now();
    const [row] = await db.$queryRawUnsafe<{ due: bigint | number; oldest_due_at: Date | null }[]>(
      `SELECT count(*) AS due, min(d.next_attempt_at) AS oldest_due_at FROM "identity"."webhook_deliveries" d
       JOIN "identity"."webhook_endpoints" e ON e.id = d.endpoint_id AND e.enabled AND e.deleted_at IS NULL
       WHERE d.status = 'pending' AND d.next_attempt_at <= $1`,
      at,
    );
    return { due: Number(row?.due ?? 0), oldest_due_at: row?.oldest_due_at ?? null, now: at };
  }

  return {
    deliverDue,
    queueStats,
    async run(): Promise<JobOutcome> {
      try {
        const claimed = await deliverDue();
        return { outcome: "later", afterMs: claimed === batch ? 0 : POLL_MS };
      } catch (error) {
        // a standing job never fails for good: the database away, it looks again later
        logger.warn({ err: error }, "webhook delivery: pass failed; retrying");
        return { outcome: "later", afterMs: POLL_MS * 5 };
      }
    },
  };
}
