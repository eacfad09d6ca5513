import { Type } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { AGENT_TASK_STATUSES } from "../../lib/vocabulary/agents.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** When a task may start, as REST takes it: epoch milliseconds or an ISO 8601 string. */
export const ScheduledAt = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ format: "date-time" })], { description: "epoch milliseconds, or an ISO 8601 instant" });

/** An agent task in REST (spec 3.5), written inline by its routes; its body from CreateAgentTaskInput. */
export const resource = {
  type: "AgentTask",
  component: false,
  inputs: { CreateAgentTaskInput: "AgentTask" },
  types: {
    AgentTask: { fields: { status: { description: "spec 3.5" } } },
    // REST refuses null where GraphQL reads it as absent
    CreateAgentTaskInput: {
      fields: {
        kind: { minLength: 1, maxLength: 64, examples: ["strategy_run"] },
        input: { acceptsNull: false },
        scheduled_at: { schema: ScheduledAt, acceptsNull: false },
        title: { minLength: 1, maxLength: 200, acceptsNull: false },
      },
    },
  },
} satisfies RestResource;


const LIFECYCLE = [
  "States exactly spec 3.5: `queued` (created, waiting for `scheduled_at`) → `next` (due: a runner took it) → `running` → `completed` (its `output`), `failed` (its `error`) or `cancelled`. Every other move is refused with 409 `TSK-409-001` naming the current status; a queued task cannot be cancelled (the spec cancels running tasks only).",
  "Tasks are durable job rows: a runner claims a due task with `FOR UPDATE SKIP LOCKED` and a lease, so one runner holds it at a time however many processes share the database. A runner that dies mid-task leaves it `running`; after its lease another runner runs it again from the start (`attempts` counts both), and what it does is idempotent (money moves keyed by the task), so it completes once. A task whose dependency fails (a service unreachable) is retried with backoff, at most 3 runs; a task that is itself wrong (a disabled strategy, a wallet that cannot pay) fails at once.",
].join("\n\n");

const TaskId = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64, description: "tsk_<id>" }) });
const taskHref = (base: string, id: string) => href(base, "/v0/agent-tasks/{task_id}", { task_id: id });
const taskLinks = (base: string, id: string) => ({ self: link(taskHref(base, id)), cancel: link(`${taskHref(base, id)}/cancel`, { method: "POST" }) });

/** Agent tasks (spec 3.5): durable jobs run on the user's behalf. */
export const routes = ({ AGENT_TASK_FIELDS, AgentTask, CreateAgentTaskInput }: typeof Generated) => [
  defineRoute({
    operationId: "createAgentTask",
    method: "POST",
    path: "/v0/agent-tasks",
    tag: "Agent Tasks",
    summary: "Queue an agent task",
    description: [
      "Kinds: `strategy_run` with `input` `{ user_strategy_id }` runs one of your strategies once (an unknown kind: 422 at `body.kind`; an input off the kind's schema: 422 at `body.input.<field>`; another user's strategy: 404 `STR-404-002`). `scheduled_at` (default now, at most a year ahead) is when it may start. With an agent token this needs `write:strategies`.",
      LIFECYCLE,
    ].join("\n\n"),
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { kind: "strategy_run", input: { user_strategy_id: "ust_01JD4ZK2M8Q7" } },
    body: CreateAgentTaskInput,
    operation: `mutation CreateAgentTask($input: CreateAgentTaskInput!, $idempotency_key: String) { task: create_agent_task(input: $input, idempotency_key: $idempotency_key) { ${AGENT_TASK_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.task,
    status: 201,
    links: (body, { base_url }) => taskLinks(base_url, body.id),
    responses: { 201: { description: "The task, queued", schema: withLinks(AgentTask) } },
    errors: ["STR-404-002", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "listAgentTasks",
    method: "GET",
    path: "/v0/agent-tasks",
    tag: "Agent Tasks",
    summary: "Your agent tasks, newest first",
    description: LIFECYCLE,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { status: "failed", limit: 10 },
    query: Type.Object({ status: Type.Optional(literalUnion(AGENT_TASK_STATUSES)), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
    operation: `query ListAgentTasks($status: AgentTaskStatus, $limit: Int) { agent_tasks(status: $status, limit: $limit) { ${AGENT_TASK_FIELDS} } }`,
    variables: ({ query }) => ({ status: query.status ?? null, limit: query.limit ?? null }),
    result: (data) => ({ items: data.agent_tasks }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/agent-tasks")) }),
    responses: { 200: { description: "The tasks", schema: Type.Object({ items: Type.Array(AgentTask), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getAgentTask",
    method: "GET",
    path: "/v0/agent-tasks/{task_id}",
    tag: "Agent Tasks",
    summary: "One of your agent tasks",
    description: "With its input, output or error, timings and status history. Another user's or none: 404 `TSK-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { task_id: "tsk_01JD4ZK2M8Q7" },
    params: TaskId,
    operation: `query GetAgentTask($id: ID!) { task: agent_task(id: $id) { ${AGENT_TASK_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.task_id }),
    result: (data) => data.task,
    links: (body, { base_url }) => taskLinks(base_url, body.id),
    responses: { 200: { description: "The task", schema: withLinks(AgentTask) } },
    errors: ["TSK-404-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "cancelAgentTask",
    method: "POST",
    path: "/v0/agent-tasks/{task_id}/cancel",
    tag: "Agent Tasks",
    summary: "Ask a running task to stop",
    description:
      "Spec 3.5 cancels running tasks only: a queued, next or finished task is 409 `TSK-409-001` naming its status. Cooperative: the answer (202) shows the task still running with `cancel_requested_at` set; the runner moves it to `cancelled` at its next safe point (before it starts, or when its kind checks between steps). A run that finishes first completes. Asking again changes nothing.",
    security: ["PlatformJwt", "PlatformPat"],
    agentAction: "write:strategies",
    idempotent: true,
    agentExample: { task_id: "tsk_01JD4ZK2M8Q7" },
    params: TaskId,
    operation: `mutation CancelAgentTask($id: ID!, $idempotency_key: String) { task: cancel_agent_task(id: $id, idempotency_key: $idempotency_key) { ${AGENT_TASK_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.task_id }),
    result: (data) => data.task,
    status: 202,
    links: (body, { base_url }) => taskLinks(base_url, body.id),
    responses: { 202: { description: "The cancel request, recorded", schema: withLinks(AgentTask) } },
    errors: ["TSK-404-001", "TSK-409-001", "USR-403-001", "USR-404-001", "AGT-403-003"],
  }),
];
