import type { ExecutionResult } from "graphql";
import type { Authenticator, CredentialHeaders } from "../gateway/authenticate.ts";
import type { Gateway, PreparedOperation } from "../gateway/gateway.ts";
import { PRINCIPAL_HEADER, signPrincipal } from "../lib/auth/internal-principal.ts";
import { ANONYMOUS, type Principal } from "../lib/auth/principal.ts";
import { AppError, appError, fromExtensions } from "../lib/errors/app-error.ts";

/** An operation as the client keeps it between requests (parsed and validated where that is possible). */
export type OperationHandle = PreparedOperation | { source: string };

export interface GatewayRequest {
  operation: OperationHandle;
  variables: Record<string, unknown>;
  /** the listener's credential headers of the request (the adapter drops every other header) */
  headers: CredentialHeaders;
  /**
   * "none": the operation takes no credential, so none is read (GET /health answers whatever
   * headers come with it); "optional": a credential that fails to verify counts as absent
   * (GET /v0/cli/config always answers 200); "required": failures are the caller's 401;
   * "internal": the adapter itself acts (webhook receivers, after verifying the provider's
   * signature), as the internal principal only our services can present.
   */
  credentials: "none" | "optional" | "required" | "internal";
  trace_id: string;
}

/** How the adapter reaches the gateway: in memory in one process, over HTTP in split mode. */
export interface GatewayClient {
  /** called once per route at start-up */
  prepare(source: string): OperationHandle;
  execute(request: GatewayRequest): Promise<ExecutionResult>;
}



export class InProcessGatewayClient implements GatewayClient {
  constructor(
    private readonly gateway: Gateway,
    private readonly authenticator: Authenticator,
  ) {}

  prepare(source: string): PreparedOperation {
    return this.gateway.prepare(source);
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const principal = await this.principal(request);
    return this.gateway.run(request.operation as PreparedOperation, request.variables, { principal, trace_id: request.trace_id });
  }

  private async principal(request: GatewayRequest): Promise<Principal> {
    if (request.credentials === "none") return ANONYMOUS;
    if (request.credentials === "internal") return ADAPTER_PRINCIPAL;
    try {
      return await this.authenticator.authenticate(request.headers, request.trace_id);
    } catch (error) {
      if (request.credentials === "optional" && error instanceof AppError && error.status === 401) return ANONYMOUS;
      throw error;
    }
  }
}

/** The principal of the adapter's own calls (webhook receivers): subgraphs accept it for internal mutations. */
export const ADAPTER_PRINCIPAL: Principal = { kind: "internal", service: "rest-adapter" };

export class HttpGatewayClient implements GatewayClient {
  /** `internalSecret` signs the adapter's own principal (INTERNAL_SECRET, shared with the gateway) */
  constructor(
    private readonly url: string,
    private readonly internalSecret?: string,
  ) {}

  prepare(source: string): OperationHandle {
    return { source };
  }

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const query = request.operation.source;
    const base = { "content-type": "application/json", "x-request-id": request.trace_id };
    const credentials: Record<string, string> = {};
    if (request.credentials === "internal") {
      if (!this.internalSecret) throw appError("GEN-500-001", undefined, { cause: new Error("no INTERNAL_SECRET to sign the adapter's principal") });
      credentials[PRINCIPAL_HEADER] = signPrincipal(ADAPTER_PRINCIPAL, this.internalSecret);
    } else if (request.credentials !== "none") {
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) credentials[name] = Array.isArray(value) ? value[0]! : value;
    }
    const result = await this.post(query, request.variables, { ...base, ...credentials });
    // the gateway refuses bad credentials before running anything; optional ones then count as absent
    if (request.credentials === "optional" && result.errors?.some((e) => fromExtensions(e.extensions)?.status === 401)) return this.post(query, request.variables, base);
    return result;
  }

  private async post(query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<ExecutionResult> {
    let response: Response;
    try {
      response = await fetch(this.url, { method: "POST", headers, body: JSON.stringify({ query, variables }), signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw appError("GEN-502-001", "The GraphQL gateway could not be reached.", { cause: error });
    }
    if (!response.headers.get("content-type")?.includes("json")) throw appError("GEN-502-001", `The GraphQL gateway answered ${response.status}.`);
    return (await response.json()) as ExecutionResult;
  }
}
