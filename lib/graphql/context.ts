import type { Principal } from "../auth/principal.ts";
import type { JsonTextAnswers } from "../json-text.ts";

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
  /** the caller writes JsonText: a resolver may offer a value as JSON text, where the executor runs it open to that (lib/json-text.ts) */
  json_text?: JsonTextAnswers;
}
