import { AutomationFinance } from "../../lib/automation-finance.ts";
import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { AgentsUserResolver } from "./agents.resolver.ts";
import { createAgentsDb } from "./db.ts";
import { AgentTokenResolver } from "./tokens/agent-token.resolver.ts";
import { CurrentAgentTokenResolver } from "./tokens/current-agent-token.resolver.ts";
import { ChatActionResolver } from "./chat/chat-action.resolver.ts";
import { ChatResolver } from "./chat/chat.resolver.ts";
import { NotificationResolver } from "./notifications/notification.resolver.ts";
import { StrategyResolver, UserStrategiesFieldResolver, UserStrategyResolver } from "./strategies/strategy.resolver.ts";
import { AGENT_TASK_JOB } from "./tasks/agent-tasks.ts";
import { AgentTaskResolver } from "./tasks/agent-task.resolver.ts";
import { strategyRunKind } from "./tasks/strategy-run-kind.ts";
import { taskRunner } from "./tasks/task-runner.ts";
import type { AgentsServices } from "./services.ts";
import { AgentsUser } from "./types/user.ts";
import { ledgerEventConsumer, LEDGER_EVENTS_CHANNEL, LEDGER_EVENTS_JOB } from "./automation/ledger-event-consumer.ts";
import { scheduleScanner, SCHEDULE_JOB } from "./automation/schedule-scanner.ts";
import { transferKind } from "./tasks/transfer-kind.ts";
import { UserRuleResolver, UserRulesFieldResolver } from "./rules/user-rule.resolver.ts";
import { UserWidgetsResolver, WidgetResolver } from "./widgets/widget.resolver.ts";
import { ConnectorResolver, UserConnectorsFieldResolver } from "./connectors/connector.resolver.ts";
import { SandboxExchange, SandboxExport } from "./connectors/connector-provider.ts";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { OutboxPeerResolver } from "./outbox/outbox-peer.resolver.ts";
import { IDEMPOTENCY_KEY_PRUNE_JOB, idempotencyKeyPruner } from "../../lib/jobs/idempotency-key-prune.ts";

export const agentsSubgraph = defineSubgraph({
  name: "agents",
  peers: ["users", "finance"],
  services: ({ config, database, logger }, peers): AgentsServices => {
    const db = createAgentsDb(database);
    const finance = new AutomationFinance(peers.finance);
    const taskKinds = { strategy_run: strategyRunKind(db, finance), transfer: transferKind(finance) };
    const log = logger.child({ subgraph: "agents" });
    const jobs = new JobQueue({
      db,
      schema: "agents",
      logger: log,
      notifications: database,
      leaseMs: config.jobLeaseMs,
      standing: [LEDGER_EVENTS_JOB, SCHEDULE_JOB, IDEMPOTENCY_KEY_PRUNE_JOB],
      // finance's ledger events NOTIFY when they commit: read at once where both share a database
      standingWakeups: { [LEDGER_EVENTS_CHANNEL]: LEDGER_EVENTS_JOB },
      handlers: {
        [AGENT_TASK_JOB]: taskRunner({ db, kinds: taskKinds, logger: log }),
        [LEDGER_EVENTS_JOB]: ledgerEventConsumer({ db, finance, logger: log }),
        [SCHEDULE_JOB]: scheduleScanner({ db, finance, logger: log }),
        [IDEMPOTENCY_KEY_PRUNE_JOB]: idempotencyKeyPruner(db, "agents"),
      },
    });
    return {
      db,
      logger,
      users: peers.users,
      finance,
      jobs,
      taskKinds,
      cipher: CardDataCipher.load(config.cardDataKey, config.dataDir),
      providers: config.sandbox ? { con_sandbox_exchange: new SandboxExchange(), con_sandbox_books: new SandboxExport("accounting"), con_sandbox_tax: new SandboxExport("tax") } : {},
    };
  },
  resolvers: [AgentsUserResolver, AgentTokenResolver, CurrentAgentTokenResolver, ChatResolver, ChatActionResolver, StrategyResolver, UserStrategyResolver, UserStrategiesFieldResolver, AgentTaskResolver, NotificationResolver, UserRuleResolver, UserRulesFieldResolver, WidgetResolver, UserWidgetsResolver, ConnectorResolver, UserConnectorsFieldResolver, OutboxPeerResolver],
  orphanedTypes: [AgentsUser],
  // the user's own fields here are keyed on the id alone
  references: () => ({ User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } }),
  start: (services) => services.jobs.start(),
  stop: (services) => services.jobs.stop(),
});
