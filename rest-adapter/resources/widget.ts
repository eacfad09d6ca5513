import type { RestResource } from "../resource-overlay.ts";
import { WIDGET_TYPES } from "../../lib/vocabulary/agents.ts";
import { WIDGET_SETTINGS } from "../../lib/contracts/widgets.ts";

// the grid's bounds, the same in answers and bodies
const POSITION = {
  description: "where it sits on the 12-column grid",
  fields: {
    x: { minimum: 0, maximum: 11, description: "column" },
    y: { minimum: 0, maximum: 1000, description: "row" },
    w: { minimum: 1, maximum: 12, description: "width in columns" },
    h: { minimum: 1, maximum: 20, description: "height in rows" },
  },
};

/** A dashboard widget in REST (Widgets, spec 2.10), written inline by its routes; a position in a body from WidgetPositionInput. */
export const resource = {
  type: "Widget",
  component: false,
  inputs: { WidgetPositionInput: "WidgetPosition" },
  types: {
    Widget: {
      fields: {
        type: { values: WIDGET_TYPES },
        settings: {
          description: `per type: ${Object.entries(WIDGET_SETTINGS)
            .map(([type, schema]) => `\`${type}\` {${Object.keys((schema as { properties: object }).properties).join(", ")}}`)
            .join("; ")}`,
        },
      },
    },
    WidgetPosition: POSITION,
    WidgetPositionInput: POSITION,
  },
} satisfies RestResource;
