import { Type } from "@sinclair/typebox";
import { link } from "../../route-kit/links.ts";
import { Widget } from "../../resources/resources.generated.ts";
import { defineComposedRoute, type ComposedAnswer } from "../../route-kit/route.ts";
import { WidgetId, widgetHref } from "../../resources/widget.ts";
import { Links } from "../../route-kit/schemas.ts";
import type { InjectedAnswer } from "../../route-kit/in-listener.ts";

/** A refusal of an injected request, answered as it came. */
const passedOn = (answer: InjectedAnswer): ComposedAnswer => ({ status: answer.status, raw: { type: answer.type ?? "application/problem+json", payload: answer.payload } });

/**
 * GET /v0/widgets/{widget_id}/data: the widget read with the caller's credential (a table route:
 * authorisation, 404 and timestamps as everywhere), then its data request made the same way.
 * Either refusal is answered as it came.
 */
export const widgetDataRoute = defineComposedRoute({
  operationId: "getWidgetData",
  method: "GET",
  path: "/v0/widgets/{widget_id}/data",
  tag: "Widgets",
  summary: "A widget's current data",
  description:
    "Answers the widget and its data: the answer of the very REST request a client would make for it (the widget's `data_request`: GET /v0/accounts, /v0/transactions, /v0/chat/sessions…, /v0/budgets…), made with your credential, so it shows exactly what the API shows you. When that request is refused (a budget or session since deleted), its ProblemDetail is the answer. Another user's widget: 404 `WDG-404-001`.",
  security: ["PlatformJwt", "PlatformPat"],
  params: WidgetId,
  responses: {
    200: {
      description: "The widget and its data",
      schema: Type.Object({ widget: Widget, data: Type.Unknown({ description: "the data request's answer, as that route documents it" }), _links: Links }),
    },
  },
  // and the data request's refusals passed on: its budget (BGT-404-001) or session (CHT-404-001) since deleted
  errors: ["WDG-404-001", "USR-404-001", "BGT-404-001", "CHT-404-001"],
  handler:
    ({ base_url }) =>
    async ({ params, headers, inject }) => {
      const format = headers["x-timestamp-format"];
      const get = (url: string) => inject({ method: "GET", url, ...(typeof format === "string" && { headers: { "x-timestamp-format": format } }) });
      const found = await get(`/v0/widgets/${encodeURIComponent(params.widget_id)}`);
      if (found.status !== 200) return passedOn(found);
      const { _links: _widgetLinks, ...widget } = found.body as { data_request: string; _links: Record<string, unknown> };
      const data = await get(widget.data_request);
      if (data.status !== 200) return passedOn(data);
      return { status: 200, body: { widget, data: data.body, _links: { widget: link(widgetHref(base_url, params.widget_id)), source: link(`${base_url.replace(/\/+$/, "")}${widget.data_request}`) } } };
    },
});
