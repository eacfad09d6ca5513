import type { RestResource } from "../route-kit/resource-overlay.ts";
import { WIDGET_GRID, WIDGET_SETTINGS } from "../../lib/contracts/widgets.ts";
import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

// the grid's bounds, the same in answers and bodies
const POSITION = {
  description: `where it sits on the ${WIDGET_GRID.columns}-column grid`,
  fields: {
    x: { minimum: 0, maximum: WIDGET_GRID.columns - 1, description: "column" },
    y: { minimum: 0, maximum: WIDGET_GRID.max_row, description: "row" },
    w: { minimum: 1, maximum: WIDGET_GRID.columns, description: "width in columns" },
    h: { minimum: 1, maximum: WIDGET_GRID.max_height, description: "height in rows" },
  },
};

const TITLE = { minLength: 1, maxLength: 80, acceptsNull: false } as const;

/** A dashboard widget in REST (Widgets, spec 2.10), written inline by its routes; its bodies from CreateWidgetInput and UpdateWidgetInput. */
export const resource = {
  type: "Widget",
  component: false,
  inputs: { CreateWidgetInput: "Widget", UpdateWidgetInput: "Widget" },
  types: {
    Widget: {
      fields: {
        settings: {
          description: `per type: ${Object.entries(WIDGET_SETTINGS)
            .map(([type, schema]) => `\`${type}\` {${Object.keys((schema as { properties: object }).properties).join(", ")}}`)
            .join("; ")}`,
        },
      },
    },
    WidgetPosition: POSITION,
    WidgetPositionInput: POSITION,
    // REST refuses null where GraphQL reads it as absent
    CreateWidgetInput: { fields: { settings: { acceptsNull: false }, title: TITLE } },
    UpdateWidgetInput: { minProperties: 1, fields: { position: { acceptsNull: false }, settings: { acceptsNull: false }, title: TITLE } },
  },
} satisfies RestResource;

export const WidgetId = Type.Object({ widget_id: Type.String({ minLength: 1, maxLength: 64, description: "wdg_<id>" }) });
export const widgetHref = (base: string, id: string) => href(base, "/v0/widgets/{widget_id}", { widget_id: id });
const widgetLinks = (base: string, id: string) => ({
  self: link(widgetHref(base, id)),
  data: link(`${widgetHref(base, id)}/data`),
  update: link(widgetHref(base, id), { method: "PATCH" }),
  delete: link(widgetHref(base, id), { method: "DELETE" }),
});
const TYPES =
  "Types (spec 2.10): `balance` (the accounts, GET /v0/accounts), `transactions` (the latest transactions with meta, GET /v0/transactions, narrowed by `limit`, `type`, `category`, `direction`), `chat` (your chat sessions, or one session's messages with `session_id`), `budget` (your budgets, or one with `budget_id`). Settings off the type's schema: 422 at `body.settings.<field>`.";

/** The user's dashboard (Widgets); GET /v0/widgets/{widget_id}/data is rest-adapter/agent-runtime/widgets/widget-data.ts. */
export const routes = ({ CreateWidgetInput, UpdateWidgetInput, Widget, WIDGET_FIELDS }: typeof Generated) => [
  defineRoute({
    operationId: "listWidgets",
    method: "GET",
    path: "/v0/widgets",
    tag: "Widgets",
    summary: "Your dashboard's widgets",
    description: `Top to bottom, left to right. ${TYPES}`,
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListWidgets { widgets { ${WIDGET_FIELDS} } }`,
    result: (data) => ({ items: data.widgets }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/widgets")), create: link(href(base_url, "/v0/widgets"), { method: "POST" }) }),
    responses: { 200: { description: "The widgets", schema: Type.Object({ items: Type.Array(Widget), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "createWidget",
    method: "POST",
    path: "/v0/widgets",
    tag: "Widgets",
    summary: "Add a widget",
    description: TYPES,
    security: ["PlatformJwt", "PlatformPat"],
    body: CreateWidgetInput,
    operation: `mutation CreateWidget($input: CreateWidgetInput!) { widget: create_widget(input: $input) { ${WIDGET_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.widget,
    status: 201,
    links: (body, { base_url }) => widgetLinks(base_url, body.id),
    responses: { 201: { description: "The widget", schema: withLinks(Widget) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "getWidget",
    method: "GET",
    path: "/v0/widgets/{widget_id}",
    tag: "Widgets",
    summary: "One of your widgets",
    description: "Another user's or none: 404 `WDG-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: WidgetId,
    operation: `query GetWidget($id: ID!) { widget(id: $id) { ${WIDGET_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.widget_id }),
    result: (data) => data.widget,
    links: (body, { base_url }) => widgetLinks(base_url, body.id),
    responses: { 200: { description: "The widget", schema: withLinks(Widget) } },
    errors: ["WDG-404-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "updateWidget",
    method: "PATCH",
    path: "/v0/widgets/{widget_id}",
    tag: "Widgets",
    summary: "Move, rename or re-set a widget",
    description: "Its type stays. Settings are checked against the type's schema.",
    security: ["PlatformJwt", "PlatformPat"],
    params: WidgetId,
    body: UpdateWidgetInput,
    operation: `mutation UpdateWidget($id: ID!, $input: UpdateWidgetInput!) { widget: update_widget(id: $id, input: $input) { ${WIDGET_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.widget_id, input: body }),
    result: (data) => data.widget,
    links: (body, { base_url }) => widgetLinks(base_url, body.id),
    responses: { 200: { description: "The widget", schema: withLinks(Widget) } },
    errors: ["WDG-404-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "deleteWidget",
    method: "DELETE",
    path: "/v0/widgets/{widget_id}",
    tag: "Widgets",
    summary: "Remove a widget",
    description: "Answers it as it was. Another user's or none: 404 `WDG-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: WidgetId,
    operation: `mutation DeleteWidget($id: ID!) { widget: delete_widget(id: $id) { ${WIDGET_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.widget_id }),
    result: (data) => data.widget,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/widgets")) }),
    responses: { 200: { description: "The removed widget", schema: withLinks(Widget) } },
    errors: ["WDG-404-001", "USR-403-001", "USR-404-001"],
  }),
];
