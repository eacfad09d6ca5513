import type { ApolloGateway, Experimental_DidResolveQueryPlanCallback } from "@apollo/gateway";
import { getOperationAST, GraphQLError, isEnumType, Kind, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { documentNames } from "../lib/graphql/document-names.ts";
import { getVariableValues } from "graphql/execution/values.js";
import { CompiledOperations } from "../lib/graphql/compiled-operation.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { executeLearntPlan, learntPlan, runsLeanNow, type LearntPlan } from "./plan-execution.ts";

type Executor = ApolloGateway["executor"];
type PlanResolved = Parameters<Experimental_DidResolveQueryPlanCallback>[0];
type GatewayRequestContext = PlanResolved["requestContext"];

/** How one operation of one document runs: straight on an in-process subgraph, its plan as learnt (gateway/plan-execution.ts), or through the gateway. */
type Route = SingleRoute | { plan: LearntPlan } | null;
type SingleRoute = { serviceName: string; operations: CompiledOperations };

/** What the plans' execution reads of the gateway: its private fields, set on every supergraph load. */
export type GatewaySchemas = () => Parameters<typeof learntPlan>[1];

/**
 * Operations whose query plan is a single fetch from one in-process subgraph run straight on
 * that subgraph's schema. The gateway would send the same selection to the same subgraph and
 * then copy the answer field by field into the shape it already has (Apollo Gateway's
 * `computeResponse`), rebuilding the operation on every request: for a page of fifty
 * transactions that copy cost a fifth of the request's CPU.
 *
 * The answer is the one the gateway gives. An operation qualifies only if its plan (learnt from
 * the gateway's first run of it) is one fetch with no requires or rewrites, the operation
 * validates against the subgraph's own schema, and it asks for no introspection (the gateway
 * answers `__schema` and `__type` itself). Variables are checked against the public API schema
 * first, as the gateway does, and errors carry `serviceName` and the gateway's fallback code.
 * A subgraph whose enums hold a value the public API hides (`@inaccessible`) never qualifies:
 * the gateway would null such a value, the subgraph would not. An operation run again and again
 * runs compiled (lib/graphql/compiled-operation.ts).
 */
export class SingleFetchShortcut {
  private routes = new WeakMap<DocumentNode, Map<string | null, Route>>();
  private apiSchema: GraphQLSchema | undefined;
  private eligible = new Map<string, { schema: GraphQLSchema; operations: CompiledOperations }>();

  constructor(
    private readonly localSchemas: Record<string, GraphQLSchema>,
    private readonly gatewaySchemas: GatewaySchemas,
  ) {}

  /** On every supergraph load: what was learnt of the previous one no longer holds. */
  schemaLoaded(apiSchema: GraphQLSchema): void {
    this.apiSchema = apiSchema;
    this.routes = new WeakMap();
    this.eligible = new Map(
      Object.entries(this.localSchemas)
        .filter(([, schema]) => enumsWithinApi(schema, apiSchema))
        .map(([name, schema]) => [name, { schema, operations: new CompiledOperations(schema) }]),
    );
  }

  /** The gateway's `experimental_didResolveQueryPlan`: called with the plan of every operation it runs. */
  learn(resolved: PlanResolved): void {
    const { queryPlan, requestContext } = resolved;
    const { document } = requestContext;
    let operations = this.routes.get(document);
    if (!operations) this.routes.set(document, (operations = new Map()));
    const name = requestContext.request.operationName ?? null;
    if (!operations.has(name)) operations.set(name, this.routeOf(queryPlan, requestContext) ?? this.planRoute(resolved));
  }

  /** The executor to hand Apollo Server and the adapter: the shortcut where it applies, else `executor`. */
  wrap(executor: Executor): Executor {
    return (requestContext) => {
      const route = this.routes.get(requestContext.document)?.get(requestContext.request.operationName ?? null);
      if (route && "plan" in route) return runsLeanNow(requestContext) ? executeLearntPlan(route.plan, requestContext) : executor(requestContext);
      return route ? this.run(route, requestContext) : executor(requestContext);
    };
  }

  /** Any other plan runs on the lean execution of it, where it can. */
  private planRoute(resolved: PlanResolved): Route {
    const plan = learntPlan(resolved, this.gatewaySchemas(), new Set(this.eligible.keys()));
    return plan ? { plan } : null;
  }

  private routeOf(queryPlan: PlanResolved["queryPlan"], { document }: GatewayRequestContext): Route {
    const fetch = queryPlan.node;
    if (fetch?.kind !== "Fetch" || fetch.requires || fetch.inputRewrites?.length || fetch.outputRewrites?.length || fetch.contextRewrites?.length) return null;
    const subgraph = this.eligible.get(fetch.serviceName);
    if (!subgraph || asksForIntrospection(document) || validate(subgraph.schema, document).length > 0) return null;
    return { serviceName: fetch.serviceName, operations: subgraph.operations };
  }

  private async run(route: SingleRoute, requestContext: GatewayRequestContext): Promise<ExecutionResult> {
    const { request, document } = requestContext;
    const variableValues = request.variables ?? {};
    const operation = getOperationAST(document, request.operationName);
    if (operation?.variableDefinitions?.length) {
      const { errors } = getVariableValues(this.apiSchema!, operation.variableDefinitions, variableValues);
      if (errors) return { errors };
    }
    const context = requestContext.context as RequestContext;
    const execute = () => route.operations.execute(document, request.operationName, variableValues, context);
    // the subgraph's answer is the client's, path for path: resolvers may answer JSON text (lib/json-text.ts)
    const result = await (context.json_text ? context.json_text.during(execute) : execute());
    if (!result.errors || !("data" in result)) return result;
    return { ...result, errors: result.errors.map((error) => asGatewayError(error, route.serviceName)) };
  }
}

/** A subgraph's error as the gateway passes it on (its `downstreamServiceError`). */
function asGatewayError(error: GraphQLError, serviceName: string): GraphQLError {
  const extensions: Record<string, unknown> = { ...error.extensions, serviceName };
  if (typeof extensions.code !== "string") extensions.code = "DOWNSTREAM_SERVICE_ERROR";
  return new GraphQLError(error.message || `Error while fetching subquery from service "${serviceName}"`, { originalError: error, path: error.path, extensions });
}

function asksForIntrospection(document: DocumentNode): boolean {
  return documentNames(document, Kind.FIELD, ["__schema", "__type"]);
}

/** Every enum value the subgraph can answer is one the public API shows. */
export function enumsWithinApi(subgraph: GraphQLSchema, api: GraphQLSchema): boolean {
  return Object.values(subgraph.getTypeMap()).every((type) => {
    if (!isEnumType(type) || type.name.startsWith("__")) return true;
    const visible = api.getType(type.name);
    if (!visible) return true;
    return isEnumType(visible) && type.getValues().every((value) => visible.getValue(value.name) !== undefined);
  });
}
