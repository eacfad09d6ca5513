import { Type } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CONNECTOR } from "./connector.ts";

/** GraphQL answers what a sync did as any JSON object; REST says it counts. */
export const SyncCounts = Type.Record(Type.String(), Type.Integer());

// REST refuses null where GraphQL reads it as absent
const AUTHORIZATION = { credentials: { acceptsNull: false }, code: { minLength: 1, maxLength: 512, acceptsNull: false } } as const;

/** A connection of the user in REST (spec 3.6), written inline by the Connectors routes; never its credentials. Its bodies from ConnectConnectorInput and ReconnectUserConnectorInput. */
export const resource = {
  type: "UserConnector",
  component: false,
  inputs: { ConnectConnectorInput: "UserConnector", ReconnectUserConnectorInput: "UserConnector" },
  types: {
    UserConnector: {
      fields: {
        id: { description: "ucn_<id>; also the id of its account in GET /v0/accounts" },
        status: { description: "spec 3.6; see the transitions in the description" },
        last_sync: { schema: SyncCounts },
      },
    },
    Connector: CONNECTOR,
    ConnectConnectorInput: { fields: { connector_id: { minLength: 1, maxLength: 64 }, ...AUTHORIZATION } },
    ReconnectUserConnectorInput: { minProperties: 1, fields: AUTHORIZATION },
  },
} satisfies RestResource;
