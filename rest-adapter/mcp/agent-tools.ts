import type { TSchema } from "@sinclair/typebox";
import type { AgentTokenScope } from "../../lib/vocabulary/agents.ts";
import { agentScopeOf, type HttpMethod, type Route } from "../route.ts";

/** An AgentTool operation as an MCP tool: the route it runs, its name, description and input schema. */
export interface AgentTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  route: Pick<Route, "method" | "path" | "params" | "query" | "body">;
  /** a typical call's arguments (the route's agentExample) */
  example: Record<string, unknown>;
  scope: AgentTokenScope;
}

/** The HTTP request a tool call makes: the route's path with its parameters, its query string, and for a write its JSON body. */
export interface ToolRequest {
  method: HttpMethod;
  url: string;
  body?: Record<string, unknown>;
}

const snakeCase = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function properties(schema: TSchema | undefined): { properties: Record<string, unknown>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const plain = JSON.parse(JSON.stringify(schema)) as { properties?: Record<string, unknown>; required?: string[] };
  return { properties: plain.properties ?? {}, required: plain.required ?? [] };
}

/**
 * The AgentTool routes (those with an `agentScope`) as tools, from the route table alone: a tool
 * call is the REST request, so validation, authorisation and answers are the route's own.
 */
export function agentTools(routes: readonly Route[]): AgentTool[] {
  return routes
    .flatMap((route) => {
      const scope = agentScopeOf(route);
      return scope === undefined ? [] : [{ route, scope }];
    })
    .map(({ route, scope }) => {
      const params = properties(route.params);
      const query = properties(route.query);
      const body = properties(route.body);
      const required = [...Object.keys(params.properties), ...query.required, ...body.required];
      return {
        name: snakeCase(route.operationId),
        description: [
          `${route.summary} (${route.method} ${route.path}).`,
          route.description,
          `Needs an agent token with the scope ${scope}. Amounts are decimal strings, never floats (each field's description gives its unit; amount_usd and value_usd are US dollars); timestamps are epoch milliseconds. Answers the REST body as JSON; a refusal is a tool error carrying the RFC 7807 problem (error_code, detail).`,
          `Example arguments: ${JSON.stringify(route.agentExample ?? {})}`,
        ]
          .filter(Boolean)
          .join("\n\n"),
        inputSchema: { type: "object", properties: { ...params.properties, ...query.properties, ...body.properties }, ...(required.length > 0 && { required }) },
        route,
        example: route.agentExample ?? {},
        scope,
      };
    });
}

/** The REST request of an AgentTool route's example, as /openapi.json shows it to models. */
export function exampleRequest(route: Pick<Route, "method" | "path" | "query" | "body" | "agentExample">): ToolRequest {
  return toolRequest({ route }, route.agentExample ?? {});
}

/** The request a call with `args` makes; arguments that are not the route's own are dropped. */
export function toolRequest(tool: Pick<AgentTool, "route">, args: Record<string, unknown>): ToolRequest {
  const pathNames = new Set<string>();
  const path = tool.route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    pathNames.add(name);
    return encodeURIComponent(String(args[name] ?? ""));
  });
  const search = new URLSearchParams();
  const queryNames = Object.keys(properties(tool.route.query).properties);
  for (const name of queryNames) {
    const value = args[name];
    if (value === undefined || value === null || pathNames.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const query = search.toString();
  const url = query ? `${path}?${query}` : path;
  const bodyNames = Object.keys(properties(tool.route.body).properties).filter((name) => !pathNames.has(name) && !queryNames.includes(name));
  if (bodyNames.length === 0) return { method: tool.route.method, url };
  return { method: tool.route.method, url, body: Object.fromEntries(bodyNames.filter((name) => args[name] !== undefined).map((name) => [name, args[name]])) };
}
