import internals, { type FieldSelection, type Operation, type Schema } from "@apollo/federation-internals";
import type { Experimental_DidResolveQueryPlanCallback } from "@apollo/gateway";
import dataRewrites from "@apollo/gateway/dist/dataRewrites.js";
import executeQueryPlanModule from "@apollo/gateway/dist/executeQueryPlan.js";
import resultShaping from "@apollo/gateway/dist/resultShaping.js";
import deepMergeModule from "@apollo/gateway/dist/utilities/deepMerge.js";
import { evaluateCondition, getResponseName, type FetchNode, type PlanNode, type QueryPlanSelectionNode } from "@apollo/query-planner";
import { executeSync, GraphQLError, Kind, OperationTypeNode, visit, type DocumentNode, type ExecutionResult, type FieldNode, type GraphQLSchema, type VariableDefinitionNode } from "graphql";
import { getVariableValues } from "graphql/execution/values.js";
import type { RequestContext } from "../lib/graphql/context.ts";
import { tracingEnabled } from "../lib/tracing.ts";
import { shapesJsonText } from "./result-shaping.ts";

type PlanResolved = Parameters<Experimental_DidResolveQueryPlanCallback>[0];
type GatewayRequestContext = PlanResolved["requestContext"];
type ServiceMap = PlanResolved["serviceMap"];
type OperationContext = PlanResolved["operationContext"];
type Data = Record<string, unknown>;
type Path = (string | number)[];
interface Cursor {
  path: Path;
  data: unknown;
  fullResult: Data;
}

/**
 * What executing an operation's plan needs that does not change from one request to the next,
 * learnt from the gateway's first run of it: its plan, operation context, services, Apollo's model
 * of the operation (to shape the answer) and the supergraph schema (for the plan's rewrites).
 */
export interface LearntPlan {
  queryPlan: PlanResolved["queryPlan"];
  operationContext: OperationContext;
  serviceMap: ServiceMap;
  operation: Operation;
  supergraphSchema: GraphQLSchema;
  /**
   * The in-process subgraphs whose answers may hold JSON text (lib/json-text.ts) when the client
   * writes it: their enums hold no value the API hides, whose check the shaping skips for a text.
   */
  textServices: ReadonlySet<string>;
}

/** Tests compare with the gateway's own execution by turning this off. */
export const planExecution = { lean: true };

// read once, as gateway/result-shaping.ts does (each read through the package's index is a getter call)
const assert: (condition: unknown, message: string | (() => string)) => asserts condition = internals.assert;
const { ERRORS, errorCodeDef, operationFromDocument } = internals;
const { applyRewrites, isObjectOfType } = dataRewrites;
const { deepMerge } = deepMergeModule;
const { generateHydratedPaths } = executeQueryPlanModule;

/**
 * The plan an operation of the gateway's runs on, kept for the lean execution below; undefined
 * for a plan it does not run (a subscription or @defer, which the gateway refuses its own way), or
 * an operation Apollo cannot model (the gateway answers its error on every request).
 */
export function learntPlan({ queryPlan, serviceMap, operationContext }: PlanResolved, gateway: { apiSchema: Schema; supergraphSchema: GraphQLSchema }, textServices: ReadonlySet<string>): LearntPlan | undefined {
  if (!queryPlan.node || queryPlan.node.kind === "Subscription" || !runsLean(queryPlan.node)) return undefined;
  let operation: Operation;
  try {
    // as executeQueryPlan builds it on every request (gateway/operation-cache.ts hands it back the same one)
    operation = operationFromDocument(gateway.apiSchema, { kind: Kind.DOCUMENT, definitions: [operationContext.operation, ...Object.values(operationContext.fragments)] }, { validate: false });
  } catch {
    return undefined;
  }
  return { queryPlan, operationContext, serviceMap, operation, supergraphSchema: gateway.supergraphSchema, textServices };
}

function runsLean(node: PlanNode): boolean {
  switch (node.kind) {
    case "Sequence":
    case "Parallel":
      return node.nodes.every(runsLean);
    case "Flatten":
      return runsLean(node.node);
    case "Fetch":
      return true;
    case "Condition":
      return (!node.ifClause || runsLean(node.ifClause)) && (!node.elseClause || runsLean(node.elseClause));
    default:
      return false;
  }
}

/**
 * Whether this request may skip the gateway's executor for the lean execution: not when tracing is
 * on (Apollo's spans are the trace's planning and fetch spans), usage reporting captures traces (a
 * trace node per plan node), or a client asks for the plan (outside production, Apollo answers it
 * in the extensions).
 */
export function runsLeanNow(requestContext: GatewayRequestContext): boolean {
  return planExecution.lean && !tracingEnabled() && !requestContext.metrics?.captureTraces && !(exposesPlans && requestContext.request.http?.headers.get("Apollo-Query-Plan-Experimental"));
}

/** As the gateway reads it, once (its `__exposeQueryPlanExperimental`): process.env is slow to read per request. */
const exposesPlans = process.env.NODE_ENV !== "production";

/**
 * Apollo Gateway's executor for an operation whose plan it resolved before, as the gateway
 * (`ApolloGateway.executor` then `executeQueryPlan`, @apollo/gateway 2.14, pinned) writes it,
 * without what it redoes on every request for nothing here: the operation context and the service
 * map, a look-up of the plan by the query's hash, a no-op OpenTelemetry span per step (7 for the
 * three-subgraph query) and a usage-reporting trace node per plan node, both made even when
 * nothing reads them. The variables are checked per request as the gateway does; the fetches,
 * merges, rewrites, error paths and the answer's shaping are the gateway's, in the same order.
 */
export async function executeLearntPlan(plan: LearntPlan, requestContext: GatewayRequestContext): Promise<ExecutionResult> {
  const { operationContext } = plan;
  const variableDefinitions = operationContext.operation.variableDefinitions;
  if (variableDefinitions) {
    const { errors } = getVariableValues(operationContext.schema, variableDefinitions, requestContext.request.variables || {});
    if (errors) return { errors };
  }
  const errors: GraphQLError[] = [];
  const context: PlanContext = { ...plan, requestContext, errors };
  const unfilteredData: Data = Object.create(null);
  await executeNode(context, plan.queryPlan.node as PlanNode, { path: [], data: unfilteredData, fullResult: unfilteredData });
  const variables = requestContext.request.variables;
  let data: unknown;
  try {
    let postProcessingErrors: GraphQLError[];
    ({ data, errors: postProcessingErrors } = resultShaping.computeResponse({
      operation: plan.operation,
      variables,
      input: unfilteredData,
      introspectionHandling: introspection(operationContext, variables),
    }));
    if (errors.length === 0 && postProcessingErrors.length > 0) return { extensions: { valueCompletion: postProcessingErrors }, data: data as Data };
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    if (error instanceof Error) return { errors: [new GraphQLError(error.message, { originalError: error })] };
    (requestContext.logger || console).error("Unexpected error during query plan execution: " + error);
    return { errors: [new GraphQLError("Unexpected error during query plan execution")] };
  }
  return errors.length === 0 ? { data: data as Data } : { errors, data: data as Data };
}

/**
 * Answers `__schema` and `__type` selections (a function returned, not bound to a name: the
 * bundle's keepNames would define a name on every request's closure otherwise).
 */
function introspection(operationContext: OperationContext, variables: Data | undefined): (selection: FieldSelection) => unknown {
  return (selection) => executeIntrospection(operationContext.schema, selection.expandFragments().toSelectionNode(), operationContext.operation.variableDefinitions, variables);
}

interface PlanContext extends LearntPlan {
  requestContext: GatewayRequestContext;
  errors: GraphQLError[];
}

async function executeNode(context: PlanContext, node: PlanNode, cursor: Cursor | undefined): Promise<void> {
  if (!cursor) return;
  switch (node.kind) {
    case "Sequence":
      for (const child of node.nodes) await executeNode(context, child, cursor);
      return;
    case "Parallel":
      await Promise.all(node.nodes.map((child) => executeNode(context, child, cursor)));
      return;
    case "Flatten":
      return executeNode(context, node.node, moveIntoCursor(cursor, node.path));
    case "Fetch":
      try {
        await executeFetch(context, node, cursor);
      } catch (error) {
        context.errors.push(error as GraphQLError);
      }
      return;
    case "Condition": {
      const branch = evaluateCondition(node, context.operation.variableDefinitions, context.requestContext.request.variables) ? node.ifClause : node.elseClause;
      if (branch) await executeNode(context, branch, cursor);
      return;
    }
    default:
      // learntPlan keeps no other kind
      assert(false, `Unexpected plan node ${node.kind}`);
  }
}

async function executeFetch(context: PlanContext, fetch: FetchNode, cursor: Cursor): Promise<void> {
  const service = context.serviceMap[fetch.serviceName];
  if (!service) throw new Error(`Couldn't find service with name "${fetch.serviceName}"`);
  const entities = (Array.isArray(cursor.data) ? cursor.data.filter(isPresent) : [cursor.data]) as Data[];
  if (entities.length < 1) return;
  const variables: Data = Object.create(null);
  if (fetch.variableUsages) {
    const provided = context.requestContext.request.variables;
    for (const name of fetch.variableUsages) {
      if (provided && Object.prototype.hasOwnProperty.call(provided, name) && typeof provided[name] !== "undefined") variables[name] = provided[name];
    }
  }
  if (!fetch.requires) {
    const received = await sendOperation(context, fetch, cursor, service, variables);
    if (received) applyRewrites(context.supergraphSchema, fetch.outputRewrites, received);
    for (const entity of entities) deepMerge(entity, received);
    return;
  }
  const representations: Data[] = [];
  const representationToEntity: number[] = [];
  for (let index = 0; index < entities.length; index++) {
    const representation = executeSelectionSet(context.supergraphSchema, entities[index]!, fetch.requires);
    if (representation && representation.__typename) {
      applyRewrites(context.supergraphSchema, fetch.inputRewrites, representation);
      representations.push(representation);
      representationToEntity.push(index);
    }
  }
  if (representations.length < 1) return;
  if ("representations" in variables) throw new Error(`Variables cannot contain key "representations"`);
  const received = await sendOperation(context, fetch, cursor, service, { ...variables, representations });
  if (!received) return;
  if (!(received._entities && Array.isArray(received._entities))) throw new Error(`Expected "data._entities" in response to be an array`);
  const receivedEntities = received._entities as (Data | null)[];
  if (receivedEntities.length !== representations.length) throw new Error(`Expected "data._entities" to contain ${representations.length} elements`);
  // as the gateway: over the entities' count, not the representations' (equal unless one had no __typename)
  for (let i = 0; i < entities.length; i++) {
    const receivedEntity = receivedEntities[i];
    const existingEntity = entities[representationToEntity[i]!]!;
    if (receivedEntity && !receivedEntity.__typename) receivedEntity.__typename = existingEntity.__typename;
    applyRewrites(context.supergraphSchema, fetch.outputRewrites, receivedEntity as Data);
    deepMerge(entities[representationToEntity[i]!], receivedEntity);
  }
}

/**
 * The gateway's sendOperation: one fetch on its service, its errors at their paths in the
 * client's answer. Where the client writes JSON text and the shaping takes it, an in-process
 * subgraph's resolvers may answer values as text (lib/json-text.ts), each fetch at its own paths.
 */
async function sendOperation(context: PlanContext, fetch: FetchNode, cursor: Cursor, service: ServiceMap[string], sent: Data): Promise<Data | null | undefined> {
  const requestContext = context.requestContext.context as RequestContext;
  const texts = requestContext.json_text && context.textServices.has(fetch.serviceName) && shapesJsonText() ? requestContext.json_text.forFetch() : undefined;
  const options: Parameters<typeof service.process>[0] = {
    kind: "incoming operation" as never,
    request: { query: fetch.operation, variables: sent, operationName: fetch.operationName, http: undefined },
    incomingRequestContext: context.requestContext,
    context: texts ? { ...requestContext, json_text: texts } : requestContext,
    document: fetch.operationDocumentNode as DocumentNode,
    pathInIncomingRequest: cursor.path,
  };
  const response = await (texts ? texts.during(() => service.process(options)) : service.process(options));
  if (response.errors) {
    const errorPath = lazyErrorPath(fetch, cursor);
    context.errors.push(...response.errors.map((error) => downstreamServiceError(error as GraphQLError, fetch.serviceName, errorPath)));
    if (!response.extensions?.ftv1) {
      const metrics = context.requestContext.metrics as { nonFtv1ErrorPaths?: { subgraph: string; path: unknown }[] };
      const paths = response.errors.map((error) => ({ subgraph: fetch.serviceName, path: error.path }));
      if (metrics.nonFtv1ErrorPaths) metrics.nonFtv1ErrorPaths.push(...paths);
      else metrics.nonFtv1ErrorPaths = paths;
    }
  }
  return response.data as Data | null | undefined;
}

function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** The gateway's makeLazyErrorPathGenerator. */
function lazyErrorPath(fetch: FetchNode, cursor: Cursor): (path: readonly (string | number)[] | undefined) => Path | undefined {
  let hydratedPaths: Path[] | undefined;
  return (errorPath) => {
    if (fetch.requires && typeof errorPath?.[1] === "number") {
      if (!hydratedPaths) {
        hydratedPaths = [];
        generateHydratedPaths([], cursor.path, cursor.fullResult, hydratedPaths);
      }
      return [...(hydratedPaths[errorPath[1]] ?? []), ...errorPath.slice(2)];
    }
    return errorPath ? [...cursor.path, ...errorPath.slice()] : undefined;
  };
}

/** The gateway's executeSelectionSet: an entity's representation. */
function executeSelectionSet(schema: GraphQLSchema, source: Data | null, selections: QueryPlanSelectionNode[]): Data | null {
  if (source === null) return null;
  const result: Data = Object.create(null);
  for (const selection of selections) {
    switch (selection.kind) {
      case Kind.FIELD: {
        const responseName = getResponseName(selection);
        const inner = selection.selections;
        if (!Object.prototype.hasOwnProperty.call(source, responseName) || typeof source[responseName] === "undefined") return null;
        const value = source[responseName];
        if (Array.isArray(value)) result[responseName] = value.map((item: Data) => (inner ? executeSelectionSet(schema, item, inner) : item));
        else if (inner) result[responseName] = executeSelectionSet(schema, value as Data, inner);
        else result[responseName] = value;
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (!selection.typeCondition || !source) continue;
        if (isObjectOfType(schema, source, selection.typeCondition)) deepMerge(result, executeSelectionSet(schema, source, selection.selections) as Data);
        break;
    }
  }
  return result;
}

function moveIntoCursor(cursor: Cursor, pathInCursor: Path): Cursor | undefined {
  const data = flattenResultsAtPath(cursor.data, pathInCursor);
  return data ? { path: cursor.path.concat(pathInCursor), data, fullResult: cursor.fullResult } : undefined;
}

function flattenResultsAtPath(value: unknown, path: Path): unknown {
  if (path.length === 0) return value;
  if (value === undefined || value === null) return value;
  const [current, ...rest] = path;
  if (current === "@") return (value as unknown[]).flatMap((element) => flattenResultsAtPath(element, rest));
  assert(typeof current === "string", () => `Unexpected ${typeof current} found in path`);
  assert(!Array.isArray(value), () => `Unexpected array in result for path element ${current}`);
  return flattenResultsAtPath(Object.prototype.hasOwnProperty.call(value, current) ? (value as Data)[current] : undefined, rest);
}

function downstreamServiceError(originalError: GraphQLError, serviceName: string, errorPath: ReturnType<typeof lazyErrorPath>): GraphQLError {
  const message = originalError.message || `Error while fetching subquery from service "${serviceName}"`;
  const { extensions } = originalError;
  const options = { originalError, path: errorPath(originalError.path), extensions: { ...extensions, serviceName } };
  const codeDef = errorCodeDef(originalError);
  if (!codeDef && extensions?.code) return new GraphQLError(message, options);
  return (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
}

/** The gateway's executeIntrospection: `__schema` and `__type` answered from the API schema. */
function executeIntrospection(schema: GraphQLSchema, selection: FieldNode, variableDefinitions: readonly VariableDefinitionNode[] | undefined, variableValues: Data | undefined): unknown {
  const used = new Set<string>();
  visit(selection, { Variable: ({ name }) => void used.add(name.value) });
  const definitions = variableDefinitions?.filter((definition) => used.has(definition.variable.name.value));
  assert(used.size === (definitions?.length ?? 0), () => `Should have found all used variables ${[...used]} in definitions ${JSON.stringify(variableDefinitions)}`);
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: OperationTypeNode.QUERY, variableDefinitions: definitions, selectionSet: { kind: Kind.SELECTION_SET, selections: [selection] } }],
  };
  const { data, errors } = executeSync({ schema, document, rootValue: {}, variableValues });
  assert(!errors || errors.length === 0, () => `Introspection query for ${JSON.stringify(selection)} should not have failed but got ${JSON.stringify(errors)}`);
  if (!data) assert(false, () => `Introspection query for ${JSON.stringify(selection)} should not have failed`);
  const key = selection.alias?.value ?? selection.name.value;
  return Object.prototype.hasOwnProperty.call(data, key) ? data[key] : undefined;
}
