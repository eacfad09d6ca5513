import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRow } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { ledgerEventConsumer } from "../../subgraphs/agents/automation/ledger-event-consumer.ts";
import type { AgentsDb } from "../../subgraphs/agents/db.ts";
import { openAgentsDb } from "../support/agents-db.ts";

let db: AgentsDb;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openAgentsDb());
});
afterAll(() => close());

const DAY_MS = 86_400_000;
const job: JobRow = { id: "job_standing_ledger_events", kind: "ledger_events", key: "ledger_events", payload: {}, attempts: 1, max_attempts: 8 };
/** finance with nothing to deliver */
const quiet = { ledgerEvents: async () => [], acknowledge: async () => {}, walletAvailable: async () => "0" };

describe("the ledger-event consumer when idle (subgraphs/agents/automation/ledger-event-consumer.ts)", () => {
  it("forgets event ids older than a week, at most once an hour, and looks again in a second", async () => {
    let clock = Date.now();
    const consumer = ledgerEventConsumer({ db, finance: quiet, logger: createLogger("silent"), now: () => clock });
    const kept = (ids: bigint[]) => db.processedLedgerEvent.count({ where: { event_id: { in: ids } } });
    await db.processedLedgerEvent.createMany({ data: [{ event_id: 1n, processed_at: new Date(clock - 8 * DAY_MS) }, { event_id: 2n, processed_at: new Date(clock - DAY_MS) }] });

    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 1000 });
    expect([await kept([1n]), await kept([2n])]).toEqual([0, 1]);

    await db.processedLedgerEvent.create({ data: { event_id: 3n, processed_at: new Date(clock - 8 * DAY_MS) } });
    clock += 59 * 60_000;
    await consumer.run(job);
    expect(await kept([3n])).toBe(1);

    clock += 60_000;
    await consumer.run(job);
    expect([await kept([3n]), await kept([2n])]).toEqual([0, 1]);
  });
});
