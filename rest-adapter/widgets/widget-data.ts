import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PLATFORM_CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import { compileValidator } from "../../lib/json-validation.ts";
import { fastifyPath, pick, validate } from "../app.ts";
import { link } from "../links.ts";
import type { DocumentedRoute } from "../openapi.ts";
import { Widget } from "../resources.generated.ts";
import { WidgetId, widgetHref } from "../routes/widgets.ts";
import { Links } from "../schemas.ts";

export const widgetDataDocumentation: DocumentedRoute = {
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
  errors: ["WDG-404-001", "USR-404-001"],
};

/**
 * GET /v0/widgets/{widget_id}/data: the widget read with the caller's credential (a table route:
 * authorisation, 404 and timestamps as everywhere), then its data request injected into this
 * listener with the same credential. Either refusal is answered as it came.
 */
export function registerWidgetData(app: FastifyInstance, options: { baseUrl: string }): void {
  const validators = { path: compileValidator(WidgetId, "path") };
  app.get(fastifyPath(widgetDataDocumentation.path), async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { widget_id: string };
    validate(validators, { path: params });
    const headers = Object.fromEntries(Object.entries(pick(request.headers, [...PLATFORM_CREDENTIAL_HEADERS, "x-timestamp-format"])).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const inject = (url: string) => app.inject({ method: "GET", url, remoteAddress: request.ip, headers: { ...headers, "x-request-id": request.id } });
    const found = await inject(`/v0/widgets/${encodeURIComponent(params.widget_id)}`);
    if (found.statusCode !== 200) return reply.code(found.statusCode).headers({ "content-type": found.headers["content-type"] ?? "application/problem+json" }).send(found.body);
    const { _links: _widgetLinks, ...widget } = found.json() as { data_request: string; _links: Record<string, unknown> };
    const data = await inject(widget.data_request);
    if (data.statusCode !== 200) return reply.code(data.statusCode).headers({ "content-type": data.headers["content-type"] ?? "application/problem+json" }).send(data.body);
    return reply.code(200).send({ widget, data: data.json(), _links: { widget: link(widgetHref(options.baseUrl, params.widget_id)), source: link(`${options.baseUrl.replace(/\/+$/, "")}${widget.data_request}`) } });
  });
}
