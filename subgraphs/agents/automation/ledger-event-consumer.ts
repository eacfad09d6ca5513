import type { AutomationFinance, LedgerEvent } from "../../../lib/automation-finance.ts";
import type { JobHandler, JobOutcome } from "../../../lib/jobs/job-queue.ts";
import type { Logger } from "../../../lib/logger.ts";
import { tracedWork } from "../../../lib/tracing.ts";
import type { AgentsDb } from "../db.ts";
import { balanceKey, balancesNeeded, mayReact, reactToLedgerEvent, reactorsOf, type EventBalances } from "./event-reactions.ts";

/** The standing job that reads the ledger's outbox (one row, kept; it asks to run again after each pass). */
export const LEDGER_EVENTS_JOB = "ledger_events";
/**
 * What finance NOTIFYs when ledger events commit (its migration ledger_events_notify): on one
 * database the job runs at once; the poll (POLL_MS) stays for separate databases and lost notifications.
 */
export const LEDGER_EVENTS_CHANNEL = "finance_ledger_events";
const BATCH = 100;
const POLL_MS = 1000;
const RETRY_MS = 5000;
const PROCESSED_RETENTION_MS = 7 * 86_400_000;
/** How often an idle pass forgets old event ids: a DELETE on every idle second bought nothing. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Applies finance's ledger events in order, each exactly once: its id is recorded in the same
 * database transaction as what it causes (event-reactions.ts), so a redelivered event is skipped;
 * the batch is acknowledged to finance after. A failure stops the pass: the event is read again
 * on the next one (at-least-once delivery, exactly-once effects). The balances a threshold rule
 * compares are read from finance before the event's transaction opens. An event that no enabled
 * strategy or rule of its user concerns (mayReact: the bulk of an import for a user without
 * rules) causes nothing, so it is only recorded, with the batch's others, in one statement: it
 * cost seven statements and some 1.4 ms of CPU before (issue 30).
 */
export function ledgerEventConsumer(options: { db: AgentsDb; finance: Pick<AutomationFinance, "ledgerEvents" | "walletAvailable" | "acknowledge">; logger: Logger; now?: () => number }): JobHandler {
  const { db, finance, logger } = options;
  const now = options.now ?? Date.now;
  let prunedAt = -Infinity;
  return {
    async run() {
      try {
        return await pass();
      } catch (error) {
        // a standing job never fails for good: finance or the database away, it looks again later
        logger.warn({ err: error }, "ledger events: pass failed; retrying");
        return { outcome: "later", afterMs: RETRY_MS };
      }
    },
  };

  /**
   * A batch: the events already processed skipped (one statement), the reactors of the batch's
   * users read (two), the events nothing of theirs concerns recorded as processed (one: they cause
   * nothing), then each other event in order in its own transaction, as reactToLedgerEvent says.
   * A rule made while the batch runs may miss its events, as one made while an event's
   * transaction ran did before.
   */
  async function apply(events: LedgerEvent[]): Promise<void> {
    const processed = new Set((await db.processedLedgerEvent.findMany({ where: { event_id: { in: events.map((event) => BigInt(event.id)) } }, select: { event_id: true } })).map((row) => String(row.event_id)));
    const pending = events.filter((event) => !processed.has(event.id));
    const reactors = await reactorsOf(db, [...new Set(pending.map((event) => event.user_id))]);
    const reacting: LedgerEvent[] = [];
    const inert: LedgerEvent[] = [];
    for (const event of pending) (mayReact(event, reactors.get(event.user_id)) ? reacting : inert).push(event);
    if (inert.length > 0) await db.processedLedgerEvent.createMany({ data: inert.map((event) => ({ event_id: BigInt(event.id) })), skipDuplicates: true });
    for (const event of reacting) {
      const balances: EventBalances = new Map();
      for (const { wallet_id, asset } of balancesNeeded(reactors.get(event.user_id), event)) balances.set(balanceKey(wallet_id, asset), await finance.walletAvailable(event.user_id, wallet_id, asset, `ledger-event-${event.id}`));
      await db.$transaction(async (tx) => {
        const { count } = await tx.processedLedgerEvent.createMany({ data: [{ event_id: BigInt(event.id) }], skipDuplicates: true });
        if (count === 1) await reactToLedgerEvent(tx, event, balances, new Date());
      });
    }
    await finance.acknowledge(events.map((event) => event.id), "ledger-events");
  }

  async function pass(): Promise<JobOutcome> {
      const events = await finance.ledgerEvents(BATCH, "ledger-events");
      // a pass that finds no event was a poll, and polls are not traced
      if (events.length > 0) await tracedWork(() => apply(events));
      // idle: forget the ids of events finance will not deliver again (acknowledged long ago)
      const at = now();
      if (events.length === 0 && at - prunedAt >= PRUNE_EVERY_MS) {
        await db.processedLedgerEvent.deleteMany({ where: { processed_at: { lt: new Date(at - PROCESSED_RETENTION_MS) } } });
        prunedAt = at;
      }
      return { outcome: "later", afterMs: events.length === BATCH ? 0 : POLL_MS };
  }
}
