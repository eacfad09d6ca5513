import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from "../../../lib/idempotency.ts";
import type { AgentTokenScope } from "../../../lib/vocabulary/agents.ts";
import type { Route } from "../../route-kit/route.ts";
import { IDEMPOTENCY_KEY_ARGUMENT, properties, routeResolver, type RequestTarget, type ToolRoute } from "../../route-kit/tool-request.ts";
import { toolInputSchema, toolOutput, type JsonSchema, type OutputSchema } from "./tool-schemas.ts";

/** MCP tool annotations (hints for clients: which tools change things, and how). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  /** writes only: it removes or stops something (a DELETE, a cancel) */
  destructiveHint?: boolean;
  /** writes only: the same arguments again (their idempotency_key included) change nothing more */
  idempotentHint?: boolean;
  openWorldHint: false;
}

/**
 * An agent operation as a tool (MCP, chat): an AgentTool read (`access: "read"`, a GET) or an
 * AgentAction write (`access: "write"`), with the route it runs, its name, description, input
 * schema and output schema.
 */
export interface AgentTool extends RequestTarget {
  description: string;
  inputSchema: JsonSchema & { type: "object"; properties: Record<string, unknown>; required?: string[] };
  /** what a success answers as MCP `structuredContent`, from the route's success responses (toolOutput) */
  outputSchema: OutputSchema;
  /** `structuredContent` is `{ result: body }`, not the body: some success answer of the route is not an object */
  outputWrapped: boolean;
  /** a typical call's arguments (the route's agentExample) */
  example: Record<string, unknown>;
  scope: AgentTokenScope;
  access: "read" | "write";
  annotations: ToolAnnotations;
}

const snakeCase = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const IDEMPOTENCY_KEY_PROPERTY = {
  type: "string",
  pattern: IDEMPOTENCY_KEY_PATTERN,
  maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
  description:
    "Sent as the Idempotency-Key header: a fresh unique value (a UUID) per intended change. Retrying with the same key and arguments answers the first result again without changing anything twice; the same key with other arguments is refused (TXN-422-001).",
};

/** Writes that remove or stop something: MCP clients may ask before running them. */
function isDestructive(route: ToolRoute): boolean {
  return route.method === "DELETE" || /\/cancel$/.test(route.path);
}

function tool(route: Route, scope: AgentTokenScope, access: "read" | "write", resolve: AgentTool["resolve"]): AgentTool {
  const params = properties(route.params);
  const query = properties(route.query);
  const body = properties(route.body);
  const required = [...Object.keys(params.properties), ...query.required, ...body.required];
  const output = toolOutput(route);
  const what =
    access === "read"
      ? `An AgentTool (reads, changes nothing); needs an agent token with the scope ${scope}.`
      : `An AgentAction: it CHANGES your user's data; needs an agent token with the scope ${scope}. Send a fresh ${IDEMPOTENCY_KEY_ARGUMENT} with each change you mean to make, and the same one when retrying it.`;
  return {
    name: snakeCase(route.operationId),
    description: [
      `${route.summary} (${route.method} ${route.path}).`,
      route.description,
      `${what} Amounts are decimal strings, never floats (each field's description gives its unit; amount_usd and value_usd are US dollars); timestamps are epoch milliseconds. Answers the REST body as JSON; a refusal is a tool error carrying the RFC 7807 problem (error_code, detail).`,
      `Example arguments: ${JSON.stringify(route.agentExample ?? {})}`,
    ]
      .filter(Boolean)
      .join("\n\n"),
    inputSchema: toolInputSchema({
      type: "object",
      properties: { ...params.properties, ...query.properties, ...body.properties, ...(access === "write" && { [IDEMPOTENCY_KEY_ARGUMENT]: IDEMPOTENCY_KEY_PROPERTY }) },
      ...(required.length > 0 && { required }),
    }),
    outputSchema: output.schema,
    outputWrapped: output.wrapped,
    route,
    example: route.agentExample ?? {},
    scope,
    access,
    annotations: access === "read" ? { readOnlyHint: true, openWorldHint: false } : { readOnlyHint: false, destructiveHint: isDestructive(route), idempotentHint: true, openWorldHint: false },
    resolve,
  };
}

/**
 * The AgentTool routes (`agentScope`: reads, every one a GET) as tools, from the route table
 * alone: a tool call is the REST request, so authorisation and answers are the route's own.
 * `routes` is the whole table the requests go to: a built request must resolve there to the
 * tool's own route.
 */
export function agentTools(routes: readonly Route[]): AgentTool[] {
  const resolve = routeResolver(routes);
  return routes.flatMap((route) => (route.agentScope ? [tool(route, route.agentScope, "read", resolve)] : []));
}

/** The AgentAction routes (`agentAction`: writes an agent token with the write scope may make) as tools; see agentTools. */
export function agentActions(routes: readonly Route[]): AgentTool[] {
  const resolve = routeResolver(routes);
  return routes.flatMap((route) => (route.agentAction ? [tool(route, route.agentAction, "write", resolve)] : []));
}
