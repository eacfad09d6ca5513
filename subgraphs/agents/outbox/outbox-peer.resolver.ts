import { outboxPeerResolver } from "../../../lib/graphql/outbox-peer.ts";
import type { AgentsServices } from "../services.ts";

/** The agents outbox's peer fields for the identity service's relay; its events carry no environment (the relay asks the users subgraph). */
export const OutboxPeerResolver = outboxPeerResolver<AgentsServices>("agents", { table: (services) => services.db.outgoingEvent });
