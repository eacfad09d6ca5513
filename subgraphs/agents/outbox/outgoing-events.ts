import { emitOutgoingEvent, type OutgoingEventInput } from "../../../lib/outgoing-events-outbox.ts";
import type { AgentsTx } from "../db.ts";

/** Writes an outgoing event (issue 29) into agents.outgoing_events in the caller's transaction (lib/outgoing-events-outbox.ts). */
export const emitEvent = (tx: AgentsTx, event: OutgoingEventInput): Promise<string> => emitOutgoingEvent(tx.outgoingEvent, event);
