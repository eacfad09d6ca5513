import type { RestResource } from "../route-kit/resource-overlay.ts";
import { WIDGET_GRID, WIDGET_SETTINGS } from "../../lib/contracts/widgets.ts";

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
