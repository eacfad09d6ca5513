import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import type { DocumentNode, ExecutionResult, GraphQLFormattedError, GraphQLSchema } from "graphql";
import { PRINCIPAL_HEADER, signPrincipal } from "../lib/auth/internal-principal.ts";
import { isErrorCode } from "../lib/errors/catalogue.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import type { Logger } from "../lib/logger.ts";

export type SubgraphTarget = { schema: GraphQLSchema } | { url: string };

export interface GatewayOptions {
  supergraphSdl: string;
  /** in-process schemas (one process) or URLs (split mode), by subgraph name */
  subgraphs: Record<string, SubgraphTarget>;
  /** signs the principal header for remote subgraphs */
  internalSecret: string;
  logger: Logger;
}

/** Forwards the principal and trace id to a remote subgraph, signed so it cannot be forged. */
class PrincipalDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    url: string,
    private readonly secret: string,
  ) {
    super({ url });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const { principal, trace_id } = context as Partial<RequestContext>;
    if (!principal || !trace_id) return;
    request.http?.headers.set(PRINCIPAL_HEADER, signPrincipal(principal, this.secret));
    request.http?.headers.set("x-request-id", trace_id);
  }
}

/**
 * Unexpected failures keep their details in the log, never in the response: only catalogue
 * errors (and GraphQL's own request errors) reach clients as they are.
 */
export function maskError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    if (isErrorCode(formatted.extensions?.error_code)) return formatted;
    if (typeof code === "string" && code !== "INTERNAL_SERVER_ERROR" && code !== "DOWNSTREAM_SERVICE_ERROR") return formatted;
    logger.error({ err: error }, "unexpected GraphQL error");
    return { message: "Internal server error", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}

export class Gateway {
  private constructor(
    readonly server: ApolloServer<RequestContext>,
    private readonly gateway: ApolloGateway,
  ) {}

  static async start(options: GatewayOptions): Promise<Gateway> {
    const gateway = new ApolloGateway({
      supergraphSdl: options.supergraphSdl,
      buildService: ({ name }): GraphQLDataSource<RequestContext> => {
        const target = options.subgraphs[name];
        if (!target) throw new Error(`no subgraph configured for ${name}`);
        return "schema" in target ? new LocalGraphQLDataSource(target.schema) : new PrincipalDataSource(target.url, options.internalSecret);
      },
      logger: options.logger,
    });
    const server = new ApolloServer<RequestContext>({
      gateway,
      plugins: [ApolloServerPluginInlineTraceDisabled()],
      includeStacktraceInErrorResponses: false,
      formatError: maskError(options.logger),
      introspection: true,
      logger: options.logger,
    });
    await server.start();
    return new Gateway(server, gateway);
  }

  /** In-process execution (the adapter's path): the document is parsed once by the caller. */
  async execute(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    const response = await this.server.executeOperation({ query: document, variables }, { contextValue: context });
    if (response.body.kind !== "single") throw new Error("incremental delivery is not used");
    return response.body.singleResult as ExecutionResult;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.gateway.stop();
  }
}
