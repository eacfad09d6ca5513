import { emitOutgoingEvent, type OutgoingEventInput } from "../../../lib/outgoing-events-outbox.ts";
import type { FinanceTx } from "../db.ts";

/** Writes an outgoing event (issue 29) into finance.outgoing_events in the caller's transaction (lib/outgoing-events-outbox.ts). */
export const emitEvent = (tx: FinanceTx, event: OutgoingEventInput): Promise<string> => emitOutgoingEvent(tx.outgoingEvent, event);
