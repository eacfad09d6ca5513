import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { AgentsUserResolver } from "./agents.resolver.ts";
import { createAgentsDb } from "./db.ts";
import { AgentTokenResolver } from "./tokens/agent-token.resolver.ts";
import { ChatResolver } from "./chat/chat.resolver.ts";
import type { AgentsServices } from "./services.ts";
import { AgentsUser } from "./types/user.ts";

export const agentsSubgraph = defineSubgraph({
  name: "agents",
  peers: ["users"],
  services: ({ database, logger }, peers): AgentsServices => ({ db: createAgentsDb(database), logger, users: peers.users }),
  resolvers: [AgentsUserResolver, AgentTokenResolver, ChatResolver],
  orphanedTypes: [AgentsUser],
  // the user's own fields here are keyed on the id alone
  references: () => ({ User: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } }),
});
