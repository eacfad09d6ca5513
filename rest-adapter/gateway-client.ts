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
  /** the client's address as the adapter sees it: failed verifications and unverified credentials count on it */
  client_address: string;
}

/** How the adapter reaches the gateway: in memory in one process, over HTTP in split mode. */
export interface GatewayClient {
  /** called once per route at start-up */
  prepare(source: string): OperationHandle;
  execute(request: GatewayRequest): Promise<ExecutionResult>;
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

  async execute(request: GatewayRequest): Promise<ExecutionResult> {
    const principal = await this.principal(request);
    return this.gateway.run(request.operation as PreparedOperation, request.variables, { principal, trace_id: request.trace_id });
  }

  private async principal(request: GatewayRequest): Promise<Principal> {
    if (request.credentials === "none") return ANONYMOUS;
    if (request.credentials === "internal") return ADAPTER_PRINCIPAL;
    try {
      return await this.authenticator.authenticate(request.headers, request.trace_id, { clientAddress: request.client_address });
    } catch (error) {
      if (request.credentials === "optional" && error instanceof AppError && error.status === 401) return ANONYMOUS;
      throw error;
    }
  }
}

/** The principal of the adapter's own calls (webhook receivers): subgraphs accept it for internal mutations. */
export const ADAPTER_PRINCIPAL: Principal = { kind: "internal", service: "rest-adapter" };

/**
 * Split mode: the gateway's internal listener (GATEWAY_URL, GATEWAY_INTERNAL_PORT) over HTTP. Every
 * request carries a principal signed for the gateway over its body, with the client's address
 * (the gateway counts per-address limits on it): the adapter's own for webhook receivers, else
 * the anonymous one, meaning "verify the credential headers forwarded with it".
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
    const principal = request.credentials === "internal" ? ADAPTER_PRINCIPAL : ANONYMOUS;
    const credentials: Record<string, string> = {};
    if (request.credentials === "optional" || request.credentials === "required")
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) credentials[name] = Array.isArray(value) ? value[0]! : value;
    const result = await this.post(request, principal, credentials);
    // the gateway refuses bad credentials before running anything; optional ones then count as absent
    if (request.credentials === "optional" && result.errors?.some((e) => fromExtensions(e.extensions)?.status === 401)) return this.post(request, principal, {});
    return result;
  }

  private async post(request: GatewayRequest, principal: Principal, credentials: Record<string, string>): Promise<ExecutionResult> {
    const body = JSON.stringify({ query: request.operation.source, variables: request.variables });
    const signed = signPrincipal(principal, { secret: this.internalSecret, audience: "gateway", body, clientAddress: request.client_address });
    const headers = { ...credentials, "content-type": "application/json", "x-request-id": request.trace_id, [PRINCIPAL_HEADER]: signed };
    let response: Response;
    try {
      response = await fetch(this.url, { method: "POST", headers, body, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw appError("GEN-502-001", "The GraphQL gateway could not be reached.", { cause: error });
    }
    if (!response.headers.get("content-type")?.includes("json")) throw appError("GEN-502-001", `The GraphQL gateway answered ${response.status}.`);
    return (await response.json()) as ExecutionResult;
  }
}
