import { execute, print, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { PRINCIPAL_HEADER, signPrincipal, type PrincipalAudience } from "../lib/auth/internal-principal.ts";
import type { RequestContext } from "../lib/graphql/context.ts";

/** The gateway's own direct calls to one subgraph (principal resolution), outside query plans. */
export interface SubgraphClient {
  execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult>;
}

export class LocalSubgraphClient implements SubgraphClient {
  constructor(private readonly schema: GraphQLSchema) {}

  async execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    return execute({ schema: this.schema, document, variableValues: variables, contextValue: context });
  }
}

export class RemoteSubgraphClient implements SubgraphClient {
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
    const response = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: principal, "x-request-id": context.trace_id },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok && !response.headers.get("content-type")?.includes("json")) throw new Error(`subgraph answered ${response.status}`);
    return (await response.json()) as ExecutionResult;
  }
}
