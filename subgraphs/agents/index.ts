import { AutomationFinance } from "../../lib/automation-finance.ts";
import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { AgentsUserResolver } from "./agents.resolver.ts";
import { createAgentsDb } from "./db.ts";
import { AgentTokenResolver } from "./tokens/agent-token.resolver.ts";
import { ChatResolver } from "./chat/chat.resolver.ts";
import { NotificationResolver } from "./notifications/notification.resolver.ts";
import { StrategyResolver, UserStrategiesFieldResolver, UserStrategyResolver } from "./strategies/strategy.resolver.ts";
import { AGENT_TASK_JOB } from "./tasks/agent-tasks.ts";
import { AgentTaskResolver } from "./tasks/agent-task.resolver.ts";
import { strategyRunKind } from "./tasks/strategy-run-kind.ts";
import { taskRunner } from "./tasks/task-runner.ts";
import type { AgentsServices } from "./services.ts";
import { AgentsUser } from "./types/user.ts";

export const agentsSubgraph = defineSubgraph({
  name: "agents",
  peers: ["users", "finance"],
  services: ({ database, logger }, peers): AgentsServices => {
    const db = createAgentsDb(database);
    const finance = new AutomationFinance(peers.finance);
    const taskKinds = { strategy_run: strategyRunKind(db, finance) };
    const log = logger.child({ subgraph: "agents" });
    const jobs = new JobQueue({ db, schema: "agents", logger: log, handlers: { [AGENT_TASK_JOB]: taskRunner({ db, kinds: taskKinds, logger: log }) } });
    return { db, logger, users: peers.users, finance, jobs, taskKinds };
  },
  resolvers: [AgentsUserResolver, AgentTokenResolver, ChatResolver, StrategyResolver, UserStrategyResolver, UserStrategiesFieldResolver, AgentTaskResolver, NotificationResolver],
  orphanedTypes: [AgentsUser],
  // the user's own fields here are keyed on the id alone
  references: () => ({ User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } }),
  start: (services) => services.jobs.start(),
  stop: (services) => services.jobs.stop(),
});
