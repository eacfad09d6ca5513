import type { Principal } from "../auth/principal.ts";

/** What every subgraph resolver receives: the principal the gateway established, and the trace id. */
export interface RequestContext {
  principal: Principal;
  trace_id: string;
}
