import type { Principal } from "../auth/principal.ts";

/** The end client as the listener facing it saw it (the address after TRUST_PROXY): audit trails record it. */
export interface RequestClient {
  address?: string;
  user_agent?: string;
}

/** What every subgraph resolver receives: the principal the gateway established, the trace id and, when known, the client. */
export interface RequestContext {
  principal: Principal;
  trace_id: string;
  client?: RequestClient;
}
