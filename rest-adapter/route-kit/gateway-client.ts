import type { ExecutionResult, GraphQLSchema } from "graphql";
import type { Authenticator } from "../../gateway/authenticate.ts";
import type { Gateway, PreparedOperation } from "../../gateway/gateway.ts";
import { requestPrincipal, type PrincipalRequest } from "../../gateway/request-principal.ts";
import { PRINCIPAL_HEADER, signPrincipal } from "../../lib/auth/internal-principal.ts";
import { ADAPTER_PRINCIPAL, ANONYMOUS } from "../../lib/auth/principal.ts";
import { appError } from "../../lib/errors/app-error.ts";
import type { JsonTextAnswers } from "../../lib/json-text.ts";

/** An operation as the client keeps it between requests (parsed and validated where that is possible). */
export type OperationHandle = PreparedOperation | { source: string };

/**
 * An operation with what makes its principal: the listener's credential headers (the adapter
 * drops every other header), the route's credential mode (lib/auth/credential-mode.ts) and the
 * client's address. Both clients hand these to the same rule (gateway/request-principal.ts): in
 * this process, or at the gateway's internal listener.
 */
export interface GatewayRequest extends Omit<PrincipalRequest, "cost" | "countAddress"> {
  operation: OperationHandle;
  variables: Record<string, unknown>;
  /** the client's User-Agent, handed to resolvers with its address (RequestContext.client) */
  user_agent?: string;
  /** the answer may hold JSON text (RequestContext.json_text); a client that does not hand it on answers objects */
  json_text?: JsonTextAnswers;
}

/** How the adapter reaches the gateway: in memory in one process, over HTTP in split mode. */
export interface GatewayClient {
  /** called once per route at start-up */
  prepare(source: string): OperationHandle;
  execute(request: GatewayRequest): Promise<ExecutionResult>;
  /** the public API's schema, where this process holds it (in memory), for what routes can learn of their answers at start-up */
  schema?(): GraphQLSchema;
}


export class InProcessGatewayClient implements GatewayClient {
  /** `authenticator` is public for tests that stand up the split-mode internal listener on it */
  constructor(
    private readonly gateway: Gateway,
    readonly authenticator: Authenticator,
  ) {}

  prepare(source: string): PreparedOperation {
    return this.gateway.prepare(source);
  }

  schema(): GraphQLSchema {
    return this.gateway.schema;
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const principal = await requestPrincipal(this.authenticator, request);
    const client = { address: request.client_address, ...(request.user_agent !== undefined && { user_agent: request.user_agent }) };
    return this.gateway.run(request.operation as PreparedOperation, request.variables, { principal, trace_id: request.trace_id, client, ...(request.json_text && { json_text: request.json_text }) });
  }
}

/**
 * Split mode: the gateway's internal listener (GATEWAY_URL, GATEWAY_INTERNAL_PORT) over HTTP. Every
 * request carries a principal signed for the gateway over its body (the adapter's own in mode
 * "internal", else the anonymous one) with the route's credential mode and the client's address:
 * the gateway makes the principal from the forwarded credential headers by that mode, counting
 * on that address, in one round trip.
 */
export class HttpGatewayClient implements GatewayClient {
  /** `internalSecret`: INTERNAL_SECRET, shared with the gateway */
  constructor(
    private readonly url: string,
    private readonly internalSecret: string,
  ) {}

  prepare(source: string): OperationHandle {
    return { source };
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const credentials: Record<string, string> = {};
    // modes "none" and "internal" read no credential: none leaves this process
    if (request.credentials !== "none" && request.credentials !== "internal")
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) credentials[name] = Array.isArray(value) ? value[0]! : value;
    const principal = request.credentials === "internal" ? ADAPTER_PRINCIPAL : ANONYMOUS;
    const body = JSON.stringify({ query: request.operation.source, variables: request.variables });
    const signed = signPrincipal(principal, { secret: this.internalSecret, audience: "gateway", body, clientAddress: request.client_address, userAgent: request.user_agent, credentials: request.credentials });
    const headers = { ...credentials, "content-type": "application/json", "x-request-id": request.trace_id, [PRINCIPAL_HEADER]: signed };
    let response: Response;
    try {
      response = await fetch(this.url, { method: "POST", headers, body, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw appError("GEN-502-001", "The GraphQL gateway could not be reached.", { cause: error });
    }
    const answer: unknown = response.headers.get("content-type")?.includes("json") ? await response.json().catch(() => undefined) : undefined;
    // a proxy's own error in JSON (neither data nor errors) is the gateway not answering, as its HTML or text is
    if (!isGraphqlAnswer(answer)) throw appError("GEN-502-001", `The GraphQL gateway answered ${response.status}.`);
    return answer;
  }
}

function isGraphqlAnswer(answer: unknown): answer is ExecutionResult {
  return typeof answer === "object" && answer !== null && ("data" in answer || Array.isArray((answer as { errors?: unknown }).errors));
}
