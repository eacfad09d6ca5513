import { outboxPeerResolver } from "../../../lib/graphql/outbox-peer.ts";
import type { FinanceServices } from "../services.ts";

/** The finance outbox's peer fields for the identity service's relay; finance does not know users' environments, the relay asks users. */
export const OutboxPeerResolver = outboxPeerResolver<FinanceServices>("finance", { table: (services) => services.db.outgoingEvent });
