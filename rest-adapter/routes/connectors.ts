import { Type } from "@sinclair/typebox";
import { CONNECTOR_TYPES } from "../../lib/vocabulary/agents.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { ConnectConnectorInput, Connector, CONNECTOR_FIELDS, ReconnectUserConnectorInput, USER_CONNECTOR_FIELDS, UserConnector } from "../resources/resources.generated.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";

const LIFECYCLE =
  "States (spec 3.6) and their moves: `connected` → `error` (a sync the service refused; `last_error` says why), `error` → `connected` (a sync that works again, or new credentials), `connected` or `error` → `disconnected` (you), `disconnected` → `connected` (you, with credentials). Any other move is 409 `CON-409-001`. A bookkeeping or tax service takes the ledger's transactions recorded since its last sync (tax: swaps, ramps, interest, fees), each once; what an exchange reports (deposits, withdrawals, trades) lands in the ledger once each, on an account whose id is the connection's: its balances show in GET /v0/accounts as a `crypto_wallet` without chain or address, its movements in the feed; disconnecting takes it out of the accounts, its transactions stay.";

const UserConnectorId = Type.Object({ user_connector_id: Type.String({ minLength: 1, maxLength: 64, description: "ucn_<id>" }) });
const ucHref = (base: string, id: string) => href(base, "/v0/user/me/connectors/{user_connector_id}", { user_connector_id: id });
const ucLinks = (base: string, id: string) => ({
  self: link(ucHref(base, id)),
  sync: link(`${ucHref(base, id)}/sync`, { method: "POST" }),
  reconnect: link(`${ucHref(base, id)}/reconnect`, { method: "POST" }),
  disconnect: link(`${ucHref(base, id)}/disconnect`, { method: "POST" }),
  accounts: link(href(base, "/v0/accounts")),
});

function connectionAction(action: "sync" | "disconnect" | "reconnect") {
  return {
    method: "POST" as const,
    path: `/v0/user/me/connectors/{user_connector_id}/${action}`,
    tag: "User Connectors",
    security: ["PlatformJwt", "PlatformPat"] as ("PlatformJwt" | "PlatformPat")[],
    params: UserConnectorId,
    status: 200 as const,
    responses: { 200: { description: "The connection", schema: withLinks(UserConnector) } },
  };
}

/** The connector catalogue (Connectors) and the user's connections (User Connectors). */
export const connectorRoutes = [
  defineRoute({
    operationId: "listConnectors",
    method: "GET",
    path: "/v0/connectors",
    tag: "Connectors",
    summary: "The connector catalogue",
    description:
      "`type`: exchange, bank, accounting or tax. A bank connects through Open Banking (POST /v0/open-banking/link-token). Lists only the connectors this deployment offers: the sandbox ones (`con_sandbox_…`) in sandbox mode only; for another, GET /v0/connectors/{connector_id} and connecting answer 404 `CON-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    query: Type.Object({ type: Type.Optional(literalUnion(CONNECTOR_TYPES)) }),
    operation: `query ListConnectors($type: ConnectorType) { connectors(type: $type) { ${CONNECTOR_FIELDS} } }`,
    variables: ({ query }) => ({ type: query.type ?? null }),
    result: (data) => ({ items: data.connectors }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/connectors")), mine: link(href(base_url, "/v0/user/me/connectors")) }),
    responses: { 200: { description: "The catalogue", schema: Type.Object({ items: Type.Array(Connector), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "getConnector",
    method: "GET",
    path: "/v0/connectors/{connector_id}",
    tag: "Connectors",
    summary: "One connector of the catalogue",
    description: "None with this id: 404 `CON-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Type.Object({ connector_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    operation: `query GetConnector($id: ID!) { connector(id: $id) { ${CONNECTOR_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.connector_id }),
    result: (data) => data.connector,
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/connectors/{connector_id}", { connector_id: params.connector_id })), connect: link(href(base_url, "/v0/user/me/connectors"), { method: "POST" }) }),
    responses: { 200: { description: "The connector", schema: withLinks(Connector) } },
    errors: ["CON-404-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listUserConnectors",
    method: "GET",
    path: "/v0/user/me/connectors",
    tag: "User Connectors",
    summary: "Your connections",
    description: LIFECYCLE,
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListUserConnectors { user_connectors { ${USER_CONNECTOR_FIELDS} } }`,
    result: (data) => ({ items: data.user_connectors }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/connectors")), catalogue: link(href(base_url, "/v0/connectors")) }),
    responses: { 200: { description: "Your connections, oldest first", schema: Type.Object({ items: Type.Array(UserConnector), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "connectConnector",
    method: "POST",
    path: "/v0/user/me/connectors",
    tag: "User Connectors",
    summary: "Connect a service",
    description: `An \`api_key\` connector takes \`credentials\`, an \`oauth\` one the authorization \`code\` of its consent screen (exchanged once for tokens). Credentials or a code the service refuses: 422 \`CON-422-001\`, nothing connected; a bank connector: 422 \`CON-422-002\` (use Open Banking); an unknown connector, or one this deployment does not offer (a sandbox one outside sandbox mode): 404 \`CON-404-001\`. It syncs at once: the answer shows it \`connected\` with \`last_synced_at\`, or \`error\` with why. ${LIFECYCLE}`,
    security: ["PlatformJwt", "PlatformPat"],
    body: ConnectConnectorInput,
    operation: `mutation ConnectConnector($input: ConnectConnectorInput!) { connection: connect_connector(input: $input) { ${USER_CONNECTOR_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.connection,
    status: 201,
    links: (body, { base_url }) => ucLinks(base_url, body.id),
    responses: { 201: { description: "The connection", schema: withLinks(UserConnector) } },
    errors: ["CON-404-001", "CON-422-001", "CON-422-002", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "getUserConnector",
    method: "GET",
    path: "/v0/user/me/connectors/{user_connector_id}",
    tag: "User Connectors",
    summary: "One of your connections",
    description: "Another user's or none: 404 `CON-404-002`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: UserConnectorId,
    operation: `query GetUserConnector($id: ID!) { connection: user_connector(id: $id) { ${USER_CONNECTOR_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.user_connector_id }),
    result: (data) => data.connection,
    links: (body, { base_url }) => ucLinks(base_url, body.id),
    responses: { 200: { description: "The connection", schema: withLinks(UserConnector) } },
    errors: ["CON-404-002", "USR-404-001"],
  }),
  defineRoute({
    ...connectionAction("sync"),
    operationId: "syncUserConnector",
    summary: "Pull what the service reports",
    description: `Each movement lands in the ledger once, however often it is reported. A refusal by the service answers the connection in \`error\` with \`last_error\`. A disconnected connection: 409 \`CON-409-001\`. ${LIFECYCLE}`,
    operation: `mutation SyncUserConnector($id: ID!) { connection: sync_user_connector(id: $id) { ${USER_CONNECTOR_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.user_connector_id }),
    result: (data) => data.connection,
    links: (body, { base_url }) => ucLinks(base_url, body.id),
    errors: ["CON-404-002", "CON-409-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    ...connectionAction("disconnect"),
    operationId: "disconnectUserConnector",
    summary: "Disconnect a service",
    description: `Nothing syncs any more; its account leaves GET /v0/accounts, its transactions stay. ${LIFECYCLE}`,
    operation: `mutation DisconnectUserConnector($id: ID!) { connection: disconnect_user_connector(id: $id) { ${USER_CONNECTOR_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.user_connector_id }),
    result: (data) => data.connection,
    links: (body, { base_url }) => ucLinks(base_url, body.id),
    errors: ["CON-404-002", "CON-409-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    ...connectionAction("reconnect"),
    operationId: "reconnectUserConnector",
    summary: "Connect again with new credentials",
    description: `Checked by the service as at connecting (422 \`CON-422-001\`), then synced. ${LIFECYCLE}`,
    body: ReconnectUserConnectorInput,
    operation: `mutation ReconnectUserConnector($id: ID!, $input: ReconnectUserConnectorInput!) { connection: reconnect_user_connector(id: $id, input: $input) { ${USER_CONNECTOR_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.user_connector_id, input: body }),
    result: (data) => data.connection,
    links: (body, { base_url }) => ucLinks(base_url, body.id),
    errors: ["CON-404-002", "CON-409-001", "CON-422-001", "CON-422-002", "USR-403-001", "USR-404-001"],
  }),
];
