// The contract of the producers' outgoing-event outboxes (issue 29): each producer subgraph
// answers `_<producer>_outgoing_events` and `_ack_<producer>_outgoing_events` (internal), the
// identity service's relay asks them as its peer. Described once here because no subgraph may
// import another's internals.

import { parse } from "graphql";
import type { FederatedClient } from "./graphql/federated-client.ts";

/** An outbox row as the relay reads it. */
export interface OutboxEvent {
  /** the producer's outbox id (increasing), what is acknowledged */
  id: string;
  /** evt_…: the stable event id */
  event_id: string;
  type: string;
  user_id: string;
  /** the user's environment: `"default"` or `"<org-id>:<env-id>"`; null from a producer that does not know it (users owns it) */
  environment_id: string | null;
  resource_type: string;
  resource_id: string;
  data: Record<string, unknown>;
  /** epoch ms */
  created_at: number;
}

/** One producer's outbox, as the relay sees it. */
export interface OutboxSource {
  producer: string;
  /** the oldest unrelayed events, in order */
  pull(limit: number, traceId: string): Promise<OutboxEvent[]>;
  /** marks events relayed once they are stored */
  acknowledge(ids: string[], traceId: string): Promise<void>;
}

/** The producers whose subgraphs keep an outbox; each is a peer of the identity service. */
export const OUTBOX_PRODUCERS = ["users", "finance", "agents"] as const;
export type OutboxProducer = (typeof OUTBOX_PRODUCERS)[number];

/** A producer's outbox read through its peer client. */
export function peerOutbox(producer: OutboxProducer, client: FederatedClient): OutboxSource {
  const pull = parse(`query ($limit: Int!) { events: _${producer}_outgoing_events(limit: $limit) { id event_id type user_id environment_id resource_type resource_id data created_at } }`);
  const ack = parse(`mutation ($ids: [String!]!) { acknowledged: _ack_${producer}_outgoing_events(ids: $ids) }`);
  return {
    producer,
    async pull(limit, traceId) {
      return (await client.query<{ events: OutboxEvent[] }>(pull, { limit }, traceId)).events;
    },
    async acknowledge(ids, traceId) {
      if (ids.length > 0) await client.query(ack, { ids }, traceId);
    },
  };
}

/** The users' environments (`"default"` or `"<org-id>:<env-id>"`) by user id; an unknown user is absent. */
export type UserEnvironments = (userIds: string[], traceId: string) => Promise<Map<string, string>>;

/** The users subgraph's internal `_users_environments`, which the relay asks for events a producer answered without an environment. */
export function peerUserEnvironments(users: FederatedClient): UserEnvironments {
  const query = parse(`query ($ids: [String!]!) { environments: _users_environments(user_ids: $ids) { user_id environment_id } }`);
  return async (userIds, traceId) => {
    if (userIds.length === 0) return new Map();
    const { environments } = await users.query<{ environments: { user_id: string; environment_id: string }[] }>(query, { ids: userIds }, traceId);
    return new Map(environments.map((row) => [row.user_id, row.environment_id]));
  };
}
