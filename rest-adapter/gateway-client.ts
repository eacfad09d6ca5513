import type { ExecutionResult } from "graphql";
import type { Authenticator, CredentialHeaders } from "../gateway/authenticate.ts";
import type { Gateway, PreparedOperation } from "../gateway/gateway.ts";
import { appError } from "../lib/errors/app-error.ts";

/** An operation as the client keeps it between requests (parsed and validated where that is possible). */
export type OperationHandle = PreparedOperation | { source: string };

export interface GatewayRequest {
  operation: OperationHandle;
  variables: Record<string, unknown>;
  headers: CredentialHeaders;
  trace_id: string;
}

/** How the adapter reaches the gateway: in memory in one process, over HTTP in split mode. */
export interface GatewayClient {
  /** called once per route at start-up */
  prepare(source: string): OperationHandle;
  execute(request: GatewayRequest): Promise<ExecutionResult>;
}

/** The credential headers of spec 5.1 that travel from the adapter to the gateway. */
export const CREDENTIAL_HEADERS = ["x-platform-jwt", "x-platform-pat", "x-platform-token", "x-platform-orgid", "x-platform-pint-token", "authorization"] as const;

export class InProcessGatewayClient implements GatewayClient {
  constructor(
    private readonly gateway: Gateway,
    private readonly authenticator: Authenticator,
  ) {}

  prepare(source: string): PreparedOperation {
    return this.gateway.prepare(source);
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const principal = await this.authenticator.authenticate(request.headers, request.trace_id);
    return this.gateway.run(request.operation as PreparedOperation, request.variables, { principal, trace_id: request.trace_id });
  }
}

export class HttpGatewayClient implements GatewayClient {
  constructor(private readonly url: string) {}

  prepare(source: string): OperationHandle {
    return { source };
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const query = request.operation.source;
    const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": request.trace_id };
    for (const name of CREDENTIAL_HEADERS) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value[0]! : value;
    }
    let response: Response;
    try {
      response = await fetch(this.url, { method: "POST", headers, body: JSON.stringify({ query, variables: request.variables }), signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw appError("GEN-502-001", "The GraphQL gateway could not be reached.", { cause: error });
    }
    if (!response.headers.get("content-type")?.includes("json")) throw appError("GEN-502-001", `The GraphQL gateway answered ${response.status}.`);
    return (await response.json()) as ExecutionResult;
  }
}
