import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Type } from "@sinclair/typebox";
import { ACTION_SCHEMAS, MAX_AUTOMATION_DEPTH, RULE_LIMITS, TRIGGER_SCHEMAS } from "../../lib/contracts/rules.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

const NAME = { minLength: 1, maxLength: 120 };

/** A user rule in REST (User Rules, spec 2.10), written inline by its routes; its bodies from CreateUserRuleInput and UpdateUserRuleInput. */
export const resource = {
  type: "UserRule",
  component: false,
  inputs: { CreateUserRuleInput: "UserRule", UpdateUserRuleInput: "UserRule" },
  types: {
    // REST refuses null where GraphQL reads it as absent: absent enables a new rule, and leaves a rule's field unchanged
    CreateUserRuleInput: { fields: { name: NAME, enabled: { acceptsNull: false, default: true } } },
    UpdateUserRuleInput: { minProperties: 1, fields: { name: { ...NAME, acceptsNull: false }, enabled: { acceptsNull: false } } },
  },
} satisfies RestResource;

const settingsDoc = (schemas: Record<string, { description?: string; properties?: Record<string, { description?: string }> }>) =>
  Object.entries(schemas)
    .map(([name, schema]) => `\`${name}\` (${schema.description}): ${Object.keys(schema.properties ?? {}).map((field) => `\`${field}\``).join(", ") || "no settings"}`)
    .join("; ");

const HOW = [
  `Triggers: ${settingsDoc(TRIGGER_SCHEMAS)}. Actions: ${settingsDoc(ACTION_SCHEMAS)}.`,
  "Evaluation is event driven. Every transaction recorded and every status change is published by the ledger in the same database transaction as the change (an outbox); the automation service applies each event once, recording it with what it caused, so no event is lost when a process dies and none fires twice. A rule fires at most once per event (`GET …/executions` lists each firing). `balance_threshold` and `price_alert` fire on the crossing in their direction, from the side the value stood on when the rule was made: not on every transaction while past it. `time_based` fires at each time of its cron expression in its time zone (croner); a slot missed while the service was down fires once when it is back. Prices are looked at every 10 seconds.",
  "A `notification` lands in `GET /v0/notifications`; a `transfer` or `strategy_trigger` runs as an agent task (`GET /v0/agent-tasks`), so money moves once. Making, enabling or renaming a rule with a transfer with an agent token needs `write:transfers` (403 `AGT-403-001` otherwise).",
  `Automation has causation: every movement a rule or strategy makes carries its cause (the rules and strategies that led to it, first to last, and its depth, the automation hops from the user's own movement, the clock or a price), and so do its ledger events (an execution's \`event.cause\`; null for your own movement). A rule never fires on a movement its own chain caused: a movement made by it, or by anything it caused. A rule that moves money (\`transfer\`, \`strategy_trigger\`) reacts to a movement at most ${MAX_AUTOMATION_DEPTH - 1} hop deep, so a chain holds at most ${MAX_AUTOMATION_DEPTH} automated movements; a \`notification\` rule moves nothing and reacts at any depth. Each rule has a cooldown (${RULE_LIMITS.cooldown_ms.transfer / 1000} s between firings of a \`transfer\` or \`strategy_trigger\` rule, none for a \`notification\`; a trigger inside it is recorded \`skipped\`) and an hourly cap (${RULE_LIMITS.firings_per_hour.transfer} firings of a money-moving rule, ${RULE_LIMITS.firings_per_hour.notification} of a notification rule). A loop, a chain too deep or the cap stops the rule: the firing is recorded \`stopped\`, the rule (and every rule of a loop) moves to \`status: error\` with \`last_error\` saying why, and a notification tells you; \`PATCH {"enabled": true}\` enables it again. A user holds at most ${RULE_LIMITS.rules_per_user} rules (409 \`RUL-409-001\` beyond).`,
].join("\n\n");

const RuleId = Type.Object({ rule_id: Type.String({ minLength: 1, maxLength: 64, description: "rul_<id>" }) });
const ruleHref = (base: string, id: string) => href(base, "/v0/user/me/rules/{rule_id}", { rule_id: id });
const ruleLinks = (base: string, id: string) => ({
  self: link(ruleHref(base, id)),
  update: link(ruleHref(base, id), { method: "PATCH" }),
  delete: link(ruleHref(base, id), { method: "DELETE" }),
  executions: link(`${ruleHref(base, id)}/executions`),
});

/** The user's rules (User Rules): triggers and actions, evaluated from the ledger's events and the clock. */
export const routes = ({ CreateUserRuleInput, UpdateUserRuleInput, USER_RULE_EXECUTION_FIELDS, USER_RULE_FIELDS, UserRule, UserRuleExecution }: typeof Generated) => [
  defineRoute({
    operationId: "listUserRules",
    method: "GET",
    path: "/v0/user/me/rules",
    tag: "User Rules",
    summary: "Your rules",
    description: HOW,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: {},
    operation: `query ListUserRules { user_rules { ${USER_RULE_FIELDS} } }`,
    result: (data) => ({ items: data.user_rules }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/rules")) }),
    responses: { 200: { description: "Your rules, oldest first", schema: Type.Object({ items: Type.Array(UserRule), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "createUserRule",
    method: "POST",
    path: "/v0/user/me/rules",
    tag: "User Rules",
    summary: "Make a rule: a trigger and an action",
    description: `An unknown type is 422 at \`body.trigger_type\` or \`body.action_type\`; settings off their schema are 422 at \`body.trigger.<field>\` or \`body.action.<field>\`; a cron expression croner cannot read (or a time zone it does not know) is 422 at \`body.trigger.cron\`; a wallet not yours is 404 \`WAL-404-001\`, a strategy not yours 404 \`STR-404-002\`; a user holding ${RULE_LIMITS.rules_per_user} rules already is 409 \`RUL-409-001\`. With an agent token this needs \`write:strategies\`, and a \`transfer\` action \`write:transfers\` too (403 \`AGT-403-001\`).\n\n${HOW}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { name: "Big deposits", trigger_type: "transaction_received", trigger: { direction: "in", amount_min: "1000" }, action_type: "notification", action: { title: "Big deposit" } },
    body: CreateUserRuleInput,
    operation: `mutation CreateUserRule($input: CreateUserRuleInput!, $idempotency_key: String) { rule: create_user_rule(input: $input, idempotency_key: $idempotency_key) { ${USER_RULE_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.rule,
    status: 201,
    links: (body, { base_url }) => ruleLinks(base_url, body.id),
    responses: { 201: { description: "The rule", schema: withLinks(UserRule) } },
    errors: ["STR-404-002", "WAL-404-001", "RUL-409-001", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getUserRule",
    method: "GET",
    path: "/v0/user/me/rules/{rule_id}",
    tag: "User Rules",
    summary: "One of your rules",
    description: "Another user's or none: 404 `RUL-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { rule_id: "rul_01JD4ZK2M8Q7" },
    params: RuleId,
    operation: `query GetUserRule($id: ID!) { rule: user_rule(id: $id) { ${USER_RULE_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.rule_id }),
    result: (data) => data.rule,
    links: (body, { base_url }) => ruleLinks(base_url, body.id),
    responses: { 200: { description: "The rule", schema: withLinks(UserRule) } },
    errors: ["RUL-404-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "updateUserRule",
    method: "PATCH",
    path: "/v0/user/me/rules/{rule_id}",
    tag: "User Rules",
    summary: "Rename, enable or disable a rule",
    description: "A disabled rule does not fire; its threshold side is still kept up to date, so enabling it again does not fire on an old crossing. A rule in `error` (automation stopped it: `last_error`) is enabled or disabled the same way, its error cleared. To change a trigger or an action, make a new rule. With an agent token this needs `write:strategies`; enabling or renaming a rule whose action is `transfer` needs `write:transfers` too, as making one does (403 `AGT-403-001`); disabling it alone does not.",
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { rule_id: "rul_01JD4ZK2M8Q7", enabled: false },
    params: RuleId,
    body: UpdateUserRuleInput,
    operation: `mutation UpdateUserRule($id: ID!, $input: UpdateUserRuleInput!, $idempotency_key: String) { rule: update_user_rule(id: $id, input: $input, idempotency_key: $idempotency_key) { ${USER_RULE_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.rule_id, input: body }),
    result: (data) => data.rule,
    links: (body, { base_url }) => ruleLinks(base_url, body.id),
    responses: { 200: { description: "The rule", schema: withLinks(UserRule) } },
    errors: ["RUL-404-001", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "deleteUserRule",
    method: "DELETE",
    path: "/v0/user/me/rules/{rule_id}",
    tag: "User Rules",
    summary: "Delete a rule",
    description: "Its firings go with it; tasks it queued stay. Another user's or none: 404 `RUL-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { rule_id: "rul_01JD4ZK2M8Q7" },
    params: RuleId,
    operation: `mutation DeleteUserRule($id: ID!, $idempotency_key: String) { rule: delete_user_rule(id: $id, idempotency_key: $idempotency_key) { ${USER_RULE_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.rule_id }),
    result: (data) => data.rule,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/user/me/rules")) }),
    responses: { 200: { description: "The deleted rule", schema: withLinks(UserRule) } },
    errors: ["RUL-404-001", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "listUserRuleExecutions",
    method: "GET",
    path: "/v0/user/me/rules/{rule_id}/executions",
    tag: "User Rules",
    summary: "A rule's firings",
    description: "Newest first: when, for which event, and what it did (`fired`, or `failed` with why). Another user's rule: 404 `RUL-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { rule_id: "rul_01JD4ZK2M8Q7", limit: 10 },
    params: RuleId,
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
    operation: `query ListUserRuleExecutions($id: ID!, $limit: Int) { executions: user_rule_executions(id: $id, limit: $limit) { ${USER_RULE_EXECUTION_FIELDS} } }`,
    variables: ({ params, query }) => ({ id: params.rule_id, limit: query.limit ?? null }),
    result: (data) => ({ items: data.executions }),
    links: (_body, { base_url, params }) => ({ rule: link(ruleHref(base_url, params.rule_id)) }),
    responses: { 200: { description: "The firings", schema: Type.Object({ items: Type.Array(UserRuleExecution), _links: Links }) } },
    errors: ["RUL-404-001", "USR-404-001", "AGT-403-003"],
  }),
];
