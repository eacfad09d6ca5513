import { Type } from "@sinclair/typebox";
import { STRATEGY_CATEGORIES, USER_STRATEGY_STATUSES } from "../../lib/vocabulary/agents.ts";
import { href, link } from "../links.ts";
import { defineRoute } from "../route.ts";
import { EpochMs, Links, literalUnion, withLinks } from "../schemas.ts";

const SUMMARY_FIELDS = "id name description category";
const STRATEGY_FIELDS = `${SUMMARY_FIELDS} parameters_schema`;
const USER_STRATEGY_FIELDS = `id strategy { ${SUMMARY_FIELDS} } parameters status last_error consecutive_failures last_run_at status_history { from to cause changed_at } created_at updated_at`;

const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Summary = {
  id: Type.String({ description: "stg_<name>", examples: ["stg_round_up"] }),
  name: Type.String(),
  description: Type.String(),
  category: literalUnion(STRATEGY_CATEGORIES),
};
const Strategy = Type.Object({ ...Summary, parameters_schema: { ...JsonObject, description: "the JSON Schema a user strategy's `parameters` must meet (defaults filled in)" } });
const UserStrategy = Type.Object({
  id: Type.String({ description: "ust_<id>" }),
  strategy: Type.Object(Summary),
  parameters: { ...JsonObject, description: "as checked against the strategy's parameters_schema, defaults filled in" },
  status: literalUnion(USER_STRATEGY_STATUSES, { description: "spec 3.6; see the transitions in the description" }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: "why its runs failed (kept until it is enabled again)" }),
  consecutive_failures: Type.Integer({ description: "failed runs in a row; the third moves an enabled strategy to error" }),
  last_run_at: Type.Union([EpochMs, Type.Null()], { description: "the instant its last successful run covered up to" }),
  status_history: Type.Array(Type.Object({ from: Type.Union([Type.String(), Type.Null()]), to: Type.String(), cause: literalUnion(["user", "run_failures"] as const), changed_at: EpochMs })),
  created_at: EpochMs,
  updated_at: EpochMs,
});

const TRANSITIONS =
  "States (spec 3.6) and their moves: `enabled` → `disabled` (you), `disabled` → `enabled` (you), `enabled` → `error` (its runs failed three times in a row; `last_error` says why), `error` → `enabled` or `disabled` (you, once the cause is fixed; enabling clears the failure count). Any other move, setting the status it already has included, is 409 `STR-409-001` naming the current status.";

const StrategyId = Type.Object({ strategy_id: Type.String({ minLength: 1, maxLength: 64, description: "stg_<name>" }) });
const UserStrategyId = Type.Object({ user_strategy_id: Type.String({ minLength: 1, maxLength: 64, description: "ust_<id>" }) });
const userStrategyHref = (base: string, id: string) => href(base, "/v0/user/me/strategies/{user_strategy_id}", { user_strategy_id: id });
const userStrategyLinks = (base: string, id: string) => ({
  self: link(userStrategyHref(base, id)),
  update: link(userStrategyHref(base, id), { method: "PATCH" }),
  delete: link(userStrategyHref(base, id), { method: "DELETE" }),
  run: link(href(base, "/v0/agent-tasks"), { method: "POST", description: `{"kind":"strategy_run","input":{"user_strategy_id":"${id}"}}` }),
});
const WRITE_ERRORS = ["STR-404-002", "USR-403-001", "USR-404-001", "AGT-403-003"] as const;

/** The strategy catalogue (Strategies) and the user's strategies (User Strategies). */
export const strategyRoutes = [
  defineRoute({
    operationId: "listStrategies",
    method: "GET",
    path: "/v0/strategies",
    tag: "Strategies",
    summary: "The strategy catalogue",
    description: "Round-up savings, recurring buy (DCA), sweep above a threshold, spending-cap alert and low-balance alert, each with the JSON Schema of its parameters. `category`: savings, investing, spending or alerts.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { category: "savings" },
    query: Type.Object({ category: Type.Optional(literalUnion(STRATEGY_CATEGORIES)) }),
    operation: `query ListStrategies($category: String) { strategies(category: $category) { ${STRATEGY_FIELDS} } }`,
    variables: ({ query }) => ({ category: query.category ?? null }),
    result: (data) => ({ items: data.strategies }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/strategies")), mine: link(href(base_url, "/v0/user/me/strategies")) }),
    responses: { 200: { description: "The catalogue, by category", schema: Type.Object({ items: Type.Array(Strategy), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getStrategy",
    method: "GET",
    path: "/v0/strategies/{strategy_id}",
    tag: "Strategies",
    summary: "One strategy of the catalogue",
    description: "None with this id: 404 `STR-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { strategy_id: "stg_round_up" },
    params: StrategyId,
    operation: `query GetStrategy($id: ID!) { strategy(id: $id) { ${STRATEGY_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.strategy_id }),
    result: (data) => data.strategy,
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/strategies/{strategy_id}", { strategy_id: params.strategy_id })), enable: link(href(base_url, "/v0/user/me/strategies"), { method: "POST" }) }),
    responses: { 200: { description: "The strategy", schema: withLinks(Strategy) } },
    errors: ["STR-404-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "listUserStrategies",
    method: "GET",
    path: "/v0/user/me/strategies",
    tag: "User Strategies",
    summary: "Your strategies",
    description: `Oldest first; \`status\` filters. ${TRANSITIONS}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { status: "enabled" },
    query: Type.Object({ status: Type.Optional(literalUnion(USER_STRATEGY_STATUSES)) }),
    operation: `query ListUserStrategies($status: String) { user_strategies(status: $status) { ${USER_STRATEGY_FIELDS} } }`,
    variables: ({ query }) => ({ status: query.status ?? null }),
    result: (data) => ({ items: data.user_strategies }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/strategies")), catalogue: link(href(base_url, "/v0/strategies")) }),
    responses: { 200: { description: "Your strategies", schema: Type.Object({ items: Type.Array(UserStrategy), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "enableUserStrategy",
    method: "POST",
    path: "/v0/user/me/strategies",
    tag: "User Strategies",
    summary: "Turn a strategy on with its parameters",
    description:
      "`parameters` must meet the strategy's `parameters_schema` (422 naming each failing parameter at `body.parameters.<name>`; defaults are filled in); every `*wallet_id` parameter must be one of your wallets (404 `WAL-404-001`). It starts `enabled`. It runs as an agent task: `POST /v0/agent-tasks` with `{\"kind\":\"strategy_run\",\"input\":{\"user_strategy_id\":…}}`. With an agent token this needs `write:strategies`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: 12, asset: "USDC", threshold: "50" } },
    body: Type.Object({ strategy_id: Type.String({ minLength: 1, maxLength: 64 }), parameters: JsonObject }),
    operation: `mutation EnableUserStrategy($strategy_id: ID!, $parameters: JSONObject!, $idempotency_key: String) { user_strategy: enable_strategy(strategy_id: $strategy_id, parameters: $parameters, idempotency_key: $idempotency_key) { ${USER_STRATEGY_FIELDS} } }`,
    variables: ({ body }) => ({ strategy_id: body.strategy_id, parameters: body.parameters }),
    result: (data) => data.user_strategy,
    status: 201,
    links: (body, { base_url }) => userStrategyLinks(base_url, body.id),
    responses: { 201: { description: "The user strategy, enabled", schema: withLinks(UserStrategy) } },
    errors: ["STR-404-001", "WAL-404-001", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getUserStrategy",
    method: "GET",
    path: "/v0/user/me/strategies/{user_strategy_id}",
    tag: "User Strategies",
    summary: "One of your strategies",
    description: `Another user's or none: 404 \`STR-404-002\`. ${TRANSITIONS}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { user_strategy_id: "ust_01JD4ZK2M8Q7" },
    params: UserStrategyId,
    operation: `query GetUserStrategy($id: ID!) { user_strategy(id: $id) { ${USER_STRATEGY_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.user_strategy_id }),
    result: (data) => data.user_strategy,
    links: (body, { base_url }) => userStrategyLinks(base_url, body.id),
    responses: { 200: { description: "The user strategy", schema: withLinks(UserStrategy) } },
    errors: ["STR-404-002", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "updateUserStrategy",
    method: "PATCH",
    path: "/v0/user/me/strategies/{user_strategy_id}",
    tag: "User Strategies",
    summary: "Change your strategy's parameters or turn it on or off",
    description: `\`parameters\` replace the old ones, checked as when enabling; \`status\` is \`enabled\` or \`disabled\`. Both are checked before either is written: a refused change leaves the strategy as it was. ${TRANSITIONS}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { user_strategy_id: "ust_01JD4ZK2M8Q7", status: "disabled" },
    params: UserStrategyId,
    body: Type.Object({ parameters: Type.Optional(JsonObject), status: Type.Optional(literalUnion(["enabled", "disabled"] as const)) }, { minProperties: 1 }),
    operation: `mutation UpdateUserStrategy($id: ID!, $parameters: JSONObject, $status: String, $idempotency_key: String) { user_strategy: update_user_strategy(id: $id, parameters: $parameters, status: $status, idempotency_key: $idempotency_key) { ${USER_STRATEGY_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.user_strategy_id, parameters: body.parameters ?? null, status: body.status ?? null }),
    result: (data) => data.user_strategy,
    links: (body, { base_url }) => userStrategyLinks(base_url, body.id),
    responses: { 200: { description: "The user strategy", schema: withLinks(UserStrategy) } },
    errors: [...WRITE_ERRORS, "STR-409-001", "WAL-404-001"],
  }),
  defineRoute({
    operationId: "deleteUserStrategy",
    method: "DELETE",
    path: "/v0/user/me/strategies/{user_strategy_id}",
    tag: "User Strategies",
    summary: "Delete your strategy",
    description: "Answers it as it was; its past agent tasks stay. Another user's or none: 404 `STR-404-002`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { user_strategy_id: "ust_01JD4ZK2M8Q7" },
    params: UserStrategyId,
    operation: `mutation DeleteUserStrategy($id: ID!, $idempotency_key: String) { user_strategy: delete_user_strategy(id: $id, idempotency_key: $idempotency_key) { ${USER_STRATEGY_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.user_strategy_id }),
    result: (data) => data.user_strategy,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/user/me/strategies")) }),
    responses: { 200: { description: "The deleted user strategy", schema: withLinks(UserStrategy) } },
    errors: [...WRITE_ERRORS],
  }),
];
