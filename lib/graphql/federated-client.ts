import { execute, print, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { PRINCIPAL_HEADER, signPrincipal, type PrincipalAudience } from "../auth/internal-principal.ts";
import { isDatabaseUnavailable } from "../db/prisma-errors.ts";
import { appError, catalogueErrorOf } from "../errors/app-error.ts";
import { propagateUntraced } from "../tracing.ts";
import { databaseUnavailable } from "./mask-error.ts";
import type { RequestContext } from "./context.ts";
import type { SubgraphName } from "./subgraph-registry.ts";

/** How one subgraph is reached outside the gateway's query plans: in memory in one process, signed HTTP in split mode. */
export interface SubgraphTransport {
  execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult>;
}

export class LocalSubgraphTransport implements SubgraphTransport {
  /** `schema`: the subgraph's, or how to get it once built (peers may be built in any order) */
  constructor(private readonly schema: GraphQLSchema | (() => GraphQLSchema)) {}

  async execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    const schema = typeof this.schema === "function" ? this.schema() : this.schema;
    return execute({ schema, document, variableValues: variables, contextValue: context });
  }
}

export class RemoteSubgraphTransport implements SubgraphTransport {
  private readonly sources = new WeakMap<DocumentNode, string>();

  /** `audience`: the subgraph behind `url` (principals are signed for it alone) */
  constructor(
    private readonly url: string,
    private readonly audience: PrincipalAudience,
    private readonly secret: string,
  ) {}

  async execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    let query = this.sources.get(document);
    if (query === undefined) this.sources.set(document, (query = print(document)));
    const body = JSON.stringify({ query, variables });
    const principal = signPrincipal(context.principal, { secret: this.secret, audience: this.audience, body });
    const headers: Record<string, string> = { "content-type": "application/json", [PRINCIPAL_HEADER]: principal, "x-request-id": context.trace_id };
    // a poll's question (an outbox pull) leaves no trace in the peer either
    propagateUntraced(headers);
    const response = await fetch(this.url, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok && !response.headers.get("content-type")?.includes("json")) throw new Error(`subgraph answered ${response.status}`);
    return (await response.json()) as ExecutionResult;
  }
}

/**
 * A peer subgraph as one of our services queries it (a subgraph's declared peer, or the gateway
 * resolving principals), always as that service's internal principal. The one place where a
 * peer's answer becomes data or an error: its catalogue error as it is (so a 404 stays a 404), its
 * database away as that (in one process its errors arrive unmasked), anything else, unreachable
 * included, `GEN-503-001` naming the peer.
 */
export class FederatedClient {
  constructor(
    readonly peer: SubgraphName,
    private readonly transport: SubgraphTransport,
    /** the calling service, as the peer's resolvers see it (`requireInternal`) */
    private readonly caller: string,
  ) {}

  async query<T>(document: DocumentNode, variables: Record<string, unknown>, traceId: string): Promise<T> {
    let result: ExecutionResult;
    try {
      result = await this.transport.execute(document, variables, { principal: { kind: "internal", service: this.caller }, trace_id: traceId });
    } catch (error) {
      throw appError("GEN-503-001", `The ${this.peer} service could not be reached.`, { cause: error });
    }
    if (!result.errors?.length) return result.data as T;
    const catalogued = catalogueErrorOf(result.errors);
    if (catalogued) throw catalogued;
    if (result.errors.some(isDatabaseUnavailable)) throw databaseUnavailable();
    throw appError("GEN-503-001", `The ${this.peer} service could not answer.`, { cause: result.errors[0] });
  }
}
