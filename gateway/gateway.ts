import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { injectTraceContext } from "../lib/tracing.ts";
import { metricsEnabled, recordGraphqlOperation } from "../lib/metrics.ts";
import type { ApolloServerPlugin } from "@apollo/server";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { createHash } from "node:crypto";
import { getOperationAST, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { PRINCIPAL_HEADER, signPrincipal, type PrincipalAudience } from "../lib/auth/internal-principal.ts";
import { BoundedMap } from "../lib/bounded-map.ts";
import { appError } from "../lib/errors/app-error.ts";
import { CompiledOperations } from "../lib/graphql/compiled-operation.ts";
import { maskError } from "../lib/graphql/mask-error.ts";
import { parseVariablesAsSubgraphs } from "../lib/graphql/scalars.ts";
import { SingleFetchShortcut, type GatewaySchemas } from "./single-fetch.ts";
import { KnownOperations } from "./known-operations.ts";
import { reuseGatewayOperations } from "./operation-cache.ts";
import { shapeResultsFaster } from "./result-shaping.ts";
import { AgentGate, agentSurface, type AgentTokenUse } from "./agent-access.ts";
import { agentToolSchema, startAgentToolServer } from "./agent-contract.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { ConfigError } from "../lib/config-error.ts";
import { limitParseOptions, limitRules, operationBeyondLimits, type GraphqlLimitConfig } from "../lib/graphql/limits.ts";
import type { Logger } from "../lib/logger.ts";

export type SubgraphTarget = { schema: GraphQLSchema } | { url: string };

export interface GatewayOptions {
  supergraphSdl: string;
  /** in-process schemas (one process) or URLs (split mode), by subgraph name */
  subgraphs: Record<string, SubgraphTarget>;
  /** signs the principal header for remote subgraphs */
  internalSecret: string;
  logger: Logger;
  /** depth, alias, token, cost and directive limits and introspection (GRAPHQL_LIMITS, GRAPHQL_INTROSPECTION) */
  graphql: GraphqlLimitConfig;
  /** writes one use of an agent token (the agents subgraph's `_record_agent_token_use`) */
  recordAgentTokenUse: (use: AgentTokenUse, traceId: string) => Promise<void>;
}

/** Carries the principal and client from willSendRequest to the fetcher, which alone sees the serialised body. */
const UNSIGNED_PRINCIPAL_HEADER = "x-internal-principal-unsigned";

/**
 * Forwards the principal and trace id to a remote subgraph, signed for that subgraph and over
 * the exact body sent, so it can be neither forged nor replayed elsewhere.
 */
class PrincipalDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    url: string,
    private readonly audience: PrincipalAudience,
    secret: string,
    private readonly logger: Logger,
  ) {
    super({ url });
    const send = this.fetcher;
    this.fetcher = (target, init) => {
      const { [UNSIGNED_PRINCIPAL_HEADER]: unsigned, ...headers } = (init?.headers ?? {}) as Record<string, string>;
      if (unsigned !== undefined) {
        const { principal, client } = JSON.parse(Buffer.from(unsigned, "base64url").toString("utf8")) as Pick<RequestContext, "principal" | "client">;
        headers[PRINCIPAL_HEADER] = signPrincipal(principal, { secret, audience, body: init?.body ?? "", clientAddress: client?.address, userAgent: client?.user_agent });
      }
      injectTraceContext(headers);
      return send(target, { ...init, headers });
    };
  }

  /**
   * A subgraph that cannot be reached (or answers without GraphQL) is `GEN-503-001` naming it,
   * as every peer call is (lib/graphql/federated-client.ts), not an untyped error the adapter
   * could only call a 500: `/health` then answers 503 while one subgraph process is down.
   */
  override async process(options: GraphQLDataSourceProcessOptions<RequestContext>): ReturnType<RemoteGraphQLDataSource["process"]> {
    try {
      return await super.process(options);
    } catch (error) {
      this.logger.warn({ err: error, subgraph: this.audience }, "subgraph unreachable");
      const refused = appError("GEN-503-001", `The ${this.audience} service could not be reached.`);
      return { errors: [new GraphQLError(refused.detail, { extensions: { ...refused.extensions } })] };
    }
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const { principal, trace_id, client } = context as Partial<RequestContext>;
    if (!principal || !trace_id) return;
    request.http?.headers.set(UNSIGNED_PRINCIPAL_HEADER, Buffer.from(JSON.stringify({ principal, client })).toString("base64url"));
    request.http?.headers.set("x-request-id", trace_id);
  }
}

/** Parsed and validated subgraph documents by query text: the gateway sends each plan's fetches as text. */
const DOCUMENT_CACHE_SIZE = 1000;

/**
 * An in-process subgraph that parses and validates each fetch once and runs it compiled once it
 * repeats (lib/graphql/compiled-operation.ts): the gateway sends the same few query texts over
 * and over, and graphql() would parse, validate and interpret them on every request.
 */
export class CachedLocalDataSource extends LocalGraphQLDataSource<RequestContext> {
  private readonly documents = new BoundedMap<string, DocumentNode | readonly Error[]>(DOCUMENT_CACHE_SIZE);
  private readonly operations = new CompiledOperations(this.schema);

  override async process({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): Promise<ExecutionResult> {
    const source = request.query!;
    let document = this.documents.get(source);
    if (document === undefined) {
      const parsed = parse(source);
      const errors = validate(this.schema, parsed);
      document = errors.length > 0 ? errors : parsed;
      this.documents.set(source, document);
    }
    if (Array.isArray(document)) return { errors: document as never };
    return this.operations.execute(document as DocumentNode, request.operationName, request.variables, context);
  }
}

/** An operation parsed, validated and hashed once (at start-up), run many times. */
export interface PreparedOperation {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  queryHash: string;
}

export class Gateway {
  private apiSchema!: GraphQLSchema;
  private executor!: ApolloGateway["executor"];
  /** `/graphql/agent`: the AgentTool contract (gateway/agent-contract.ts) */
  agentServer!: ApolloServer<RequestContext>;

  private constructor(
    readonly server: ApolloServer<RequestContext>,
    private readonly gateway: ApolloGateway,
    private readonly logger: Logger,
    private readonly graphql: GraphqlLimitConfig,
    /** `/graphql`'s queries POSTed again, answered without Apollo Server's pipeline (gateway/known-operations.ts) */
    readonly known: KnownOperations,
  ) {}

  static async start(options: GatewayOptions): Promise<Gateway> {
    // Apollo Gateway otherwise probes cloud metadata endpoints and exports usage metrics to Apollo:
    // a financial backend sends nothing anywhere unless its operator opts in
    process.env.APOLLO_TELEMETRY_DISABLED ??= "true";
    reuseGatewayOperations();
    shapeResultsFaster();
    const shortcut = new SingleFetchShortcut(
      Object.fromEntries(Object.entries(options.subgraphs).flatMap(([name, target]) => ("schema" in target ? [[name, target.schema]] : []))),
      () => gateway as unknown as ReturnType<GatewaySchemas>,
    );
    const gateway: ApolloGateway = new ApolloGateway({
      supergraphSdl: options.supergraphSdl,
      // the checked-in composition, validated when `npm run compose` composed it and checked to be
      // today's by test/integration/supergraph.test.ts; Apollo skips this in production too, and
      // outside it the check was 0.1 s of every start
      validateSupergraph: false,
      buildService: ({ name }): GraphQLDataSource<RequestContext> => {
        const target = options.subgraphs[name];
        if (!target) throw new Error(`no subgraph configured for ${name}`);
        return "schema" in target ? new CachedLocalDataSource(target.schema) : new PrincipalDataSource(target.url, name as PrincipalAudience, options.internalSecret, options.logger);
      },
      // its info lines (schema loaded, mode) say nothing an operator needs at start-up
      logger: options.logger.child({ component: "apollo-gateway" }, { level: "warn" }),
      experimental_didResolveQueryPlan: (resolved) => shortcut.learn(resolved),
    });
    const surface = agentSurface(options.supergraphSdl);
    const agentGate = new AgentGate(surface, async (use, traceId) => {
      // the use is the audit trail, not the answer: a failed write is logged, the request still answered
      await options.recordAgentTokenUse(use, traceId).catch((error: unknown) => options.logger.warn({ err: error, token_id: use.token_id }, "could not record an agent token use"));
    });
    let instance: Gateway | undefined;
    const known = new KnownOperations((operation, variables, context) => instance!.execute(operation, operation.operationName, variables, context));
    const common = {
      // Apollo's landing page loads from its CDN, which the listeners' CSP blocks: browsers get
      // GraphiQL from our own origin instead (gateway/graphql-ide.ts), or nothing in production
      plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginLandingPageDisabled(), operationMetrics()],
      includeStacktraceInErrorResponses: false,
      // bin/run.ts owns SIGINT/SIGTERM: Apollo's own handlers re-raise the signal after stopping
      // and held the process's graceful stop until SHUTDOWN_TIMEOUT_MS
      stopOnTerminationSignals: false,
      formatError: maskError(options.logger),
      validationRules: limitRules(options.graphql.limits),
      parseOptions: limitParseOptions(options.graphql.limits),
      logger: options.logger,
    };
    const server = new ApolloServer<RequestContext>({
      ...common,
      plugins: [...common.plugins, known.plugin()],
      introspection: options.graphql.introspection,
      // Apollo Server and the adapter both run operations through the shortcut's executor
      gateway: {
        load: async (loadOptions) => {
          const loaded = await gateway.load(loadOptions);
          const execute = shortcut.wrap(loaded.executor);
          // an agent token's operations pass its gate first (gateway/agent-access.ts)
          instance!.executor = (requestContext) => {
            const { principal, trace_id } = requestContext.context as Partial<RequestContext>;
            if (principal?.kind !== "agent") return execute(requestContext);
            const request = { document: requestContext.document, operationName: requestContext.request.operationName, trace_id: trace_id ?? "" };
            return agentGate.run(instance!.apiSchema, principal, request, () => execute(requestContext) as Promise<ExecutionResult>) as never;
          };
          return { schema: loaded.schema, executor: instance!.executor };
        },
        onSchemaLoadOrUpdate: (callback) =>
          gateway.onSchemaLoadOrUpdate((schemaContext) => {
            parseVariablesAsSubgraphs(schemaContext.apiSchema);
            instance!.apiSchema = schemaContext.apiSchema;
            shortcut.schemaLoaded(schemaContext.apiSchema);
            known.schemaLoaded();
            agentGate.schemaLoaded();
            callback(schemaContext);
          }),
        stop: () => gateway.stop(),
      },
    });
    instance = new Gateway(server, gateway, options.logger, options.graphql, known);
    await server.start();
    instance.agentServer = await startAgentToolServer(agentToolSchema(instance.apiSchema, surface), (requestContext) => instance!.executor(requestContext), common);
    return instance;
  }

  /** The public API's schema, as `prepare` validates against it. */
  get schema(): GraphQLSchema {
    return this.apiSchema;
  }

  /**
   * Parses, validates and hashes an operation against the public API, within the limits `/graphql`
   * applies (so split mode, where the adapter goes through `/graphql`, runs it too); fails at
   * start-up, not per request.
   */
  prepare(source: string): PreparedOperation {
    const document = parse(source);
    const errors = validate(this.apiSchema, document);
    if (errors.length > 0) throw new Error(`invalid operation: ${errors.map((e) => e.message).join("; ")}\n${source}`);
    const beyond = operationBeyondLimits(this.apiSchema, source, this.graphql.limits);
    if (beyond) throw new ConfigError("GRAPHQL_LIMITS", `too low for a REST operation (${beyond}):\n${source}`);
    const operation = getOperationAST(document);
    if (!operation) throw new Error(`expected exactly one operation:\n${source}`);
    return { source, document, operation, queryHash: createHash("sha256").update(source).digest("hex") };
  }

  /**
   * In-process execution of a prepared operation (the adapter's path): straight to the gateway's
   * executor, which plans once per operation and reuses the plan; Apollo Server's per-request
   * parse, validate and plugin pipeline is for HTTP clients and is skipped here.
   */
  async run(prepared: PreparedOperation, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    const operationName = prepared.operation.name?.value;
    if (!metricsEnabled()) return this.execute(prepared, operationName, variables, context);
    // the adapter's in-process operations skip Apollo Server and its plugins: counted here
    const started = performance.now();
    const result = await this.execute(prepared, operationName, variables, context);
    recordGraphqlOperation(operationName, prepared.operation.operation, !result.errors?.length, (performance.now() - started) / 1000);
    return result;
  }

  /** An operation parsed and validated before, on the gateway's executor as Apollo Server hands it over. */
  private async execute(prepared: PreparedOperation, operationName: string | undefined, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<ExecutionResult> {
    const requestContext = {
      request: { query: prepared.source, variables, operationName },
      document: prepared.document,
      operation: prepared.operation,
      operationName: prepared.operation.name?.value ?? null,
      queryHash: prepared.queryHash,
      context,
      logger: this.logger,
      metrics: {},
      schema: this.apiSchema,
    };
    return (await this.executor(requestContext as never)) as ExecutionResult;
  }

  async stop(): Promise<void> {
    await this.agentServer?.stop();
    await this.server.stop();
    await this.gateway.stop();
  }
}

/** Each operation's name, type, outcome and duration in the metrics (lib/metrics.ts; nothing when they are off). */
function operationMetrics(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      if (!metricsEnabled()) return;
      const started = performance.now();
      return {
        async willSendResponse({ operationName, operation, document, request, errors, response }) {
          const failed = (errors?.length ?? 0) > 0 || (response.body.kind === "single" && (response.body.singleResult.errors?.length ?? 0) > 0);
          // an operation that failed validation has no resolved name yet: read it from the document
          const name = operationName ?? request.operationName ?? (document && getOperationAST(document, undefined)?.name?.value);
          const type = operation?.operation ?? (document && getOperationAST(document, request.operationName)?.operation);
          recordGraphqlOperation(name, type, !failed, (performance.now() - started) / 1000);
        },
      };
    },
  };
}
