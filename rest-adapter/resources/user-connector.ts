import { Type } from "@sinclair/typebox";
import type { RestResource } from "../resource-overlay.ts";
import { USER_CONNECTOR_STATUSES } from "../../lib/vocabulary/agents.ts";
import { CONNECTOR } from "./connector.ts";

/** GraphQL answers what a sync did as any JSON object; REST says it counts. */
export const SyncCounts = Type.Record(Type.String(), Type.Integer());

/** A connection of the user in REST (spec 3.6), written inline by the Connectors routes; never its credentials. */
export const resource = {
  type: "UserConnector",
  component: false,
  types: {
    UserConnector: {
      fields: {
        id: { description: "ucn_<id>; also the id of its account in GET /v0/accounts" },
        status: { values: USER_CONNECTOR_STATUSES, description: "spec 3.6; see the transitions in the description" },
        last_sync: { schema: SyncCounts },
      },
    },
    Connector: CONNECTOR,
  },
} satisfies RestResource;
