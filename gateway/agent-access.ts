import { getOperationAST, GraphQLError, Kind, parse, TypeInfo, visit, visitWithTypeInfo, type ConstDirectiveNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import type { AgentPrincipal } from "../lib/auth/principal.ts";
import type { FederatedClient } from "../lib/graphql/federated-client.ts";
import { AppError, appError } from "../lib/errors/app-error.ts";
import { AGENT_ACTION_TAG_NAME, AGENT_SCOPE_TAG_PREFIX, AGENT_TAG_NAME, AGENT_WALLETS_TAG_NAME } from "../lib/graphql/agent-tag.ts";
import { AGENT_TOKEN_SCOPES, type AgentTokenScope } from "../lib/vocabulary/agents.ts";
import { isOneOf } from "../lib/vocabulary/values.ts";

/** What agents may select, read from the supergraph's tags (lib/graphql/agent-tag.ts). */
export interface AgentSurface {
  /** object types whose every field agents may select */
  types: ReadonlySet<string>;
  /** AgentTool and AgentAction fields (`Type.field`) and the scopes one of which each needs (may be empty off the root) */
  fields: ReadonlyMap<string, readonly AgentTokenScope[]>;
  /** the AgentAction fields among them: writes, outside the AgentTool contract */
  actions: ReadonlySet<string>;
  /** AgentTool fields that narrow their answer to a wallet-restricted token's wallets */
  walletScoped: ReadonlySet<string>;
}

function tagNames(directives: readonly ConstDirectiveNode[] | undefined): string[] {
  const names: string[] = [];
  for (const directive of directives ?? []) {
    if (directive.name.value !== "tag") continue;
    const name = directive.arguments?.find((argument) => argument.name.value === "name")?.value;
    if (name?.kind === Kind.STRING) names.push(name.value);
  }
  return names;
}

/**
 * Reads the agent tags of the supergraph. AgentTool is read-only (spec 1): a mutation tagged as an
 * AgentTool, or an AgentAction naming anything but one write scope, is refused here, so the
 * gateway does not start with a surface that mixes the two.
 */
export function agentSurface(supergraphSdl: string): AgentSurface {
  const types = new Set<string>();
  const fields = new Map<string, AgentTokenScope[]>();
  const actions = new Set<string>();
  const walletScoped = new Set<string>();
  for (const definition of parse(supergraphSdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION && definition.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    if (tagNames(definition.directives).includes(AGENT_TAG_NAME)) types.add(definition.name.value);
    for (const field of definition.fields ?? []) {
      const key = `${definition.name.value}.${field.name.value}`;
      const tags = tagNames(field.directives);
      const action = tags.includes(AGENT_ACTION_TAG_NAME);
      if (!action && !tags.includes(AGENT_TAG_NAME)) continue;
      const scopes = tags.filter((tag) => tag.startsWith(AGENT_SCOPE_TAG_PREFIX)).map((tag) => tag.slice(AGENT_SCOPE_TAG_PREFIX.length));
      const unknown = scopes.find((scope) => !isOneOf(AGENT_TOKEN_SCOPES, scope));
      if (unknown !== undefined) throw new Error(`${key}: unknown agent scope tag "${unknown}"`);
      if (action && (tags.includes(AGENT_TAG_NAME) || scopes.length !== 1 || !scopes[0]!.startsWith("write:")))
        throw new Error(`${key}: an AgentAction names one write scope and is not an AgentTool as well`);
      if (!action && definition.name.value === "Mutation") throw new Error(`${key}: AgentTool fields are reads (spec 1); mark an agent write @AgentAction`);
      fields.set(key, scopes as AgentTokenScope[]);
      if (action) actions.add(key);
      if (tags.includes(AGENT_WALLETS_TAG_NAME)) walletScoped.add(key);
    }
  }
  return { types, fields, actions, walletScoped };
}

/**
 * An operation as agents see it: refused outright, or the scopes it needs (each entry: one of
 * these) and whether every field that needs one narrows to a restricted token's wallets.
 */
export type AgentRequirement = { refused: AppError } | { needs: (readonly AgentTokenScope[])[]; walletScoped: boolean };

/**
 * Every field a document selects must be an AgentTool or AgentAction field or belong to an
 * AgentTool type; a root field must name its scopes; introspection is not for agents here. Whole documents are
 * checked (every operation and fragment), so nothing an operation could reach escapes.
 */
export function agentRequirement(schema: GraphQLSchema, surface: AgentSurface, document: DocumentNode): AgentRequirement {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((type) => type != null));
  const typeInfo = new TypeInfo(schema);
  const needs: (readonly AgentTokenScope[])[] = [];
  let walletScoped = true;
  let refused: AppError | undefined;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const name = node.name.value;
        if (name === "__typename") return undefined;
        const parent = typeInfo.getParentType();
        const key = `${parent?.name}.${name}`;
        const scopes = surface.fields.get(key);
        const isRoot = parent != null && roots.has(parent as never);
        if (name.startsWith("__") || (scopes === undefined && !surface.types.has(parent?.name ?? "")) || (isRoot && !scopes?.length)) {
          refused = appError("AGT-403-002", `${key} is not available to agent tokens; they reach only the AgentTool and AgentAction operations (see those tags in /openapi.json).`);
          return false;
        }
        if (scopes?.length) {
          needs.push(scopes);
          walletScoped &&= surface.walletScoped.has(key);
        }
        return undefined;
      },
    }),
  );
  return refused ? { refused } : { needs, walletScoped };
}

/** The refusal for a token holding `scopes` (and restricted to some wallets, or not), if any need is unmet. */
export function missingScope(requirement: AgentRequirement, scopes: readonly AgentTokenScope[], restricted = false): AppError | undefined {
  if ("refused" in requirement) return requirement.refused;
  const unmet = requirement.needs.find((oneOf) => !oneOf.some((scope) => scopes.includes(scope)));
  if (unmet) return appError("AGT-403-001", `This operation needs an agent token with ${unmet.length === 1 ? "the scope" : "one of the scopes"} ${unmet.join(", ")}.`);
  if (restricted && !requirement.walletScoped) return appError("AGT-403-003");
  return undefined;
}

export interface AgentTokenUse {
  token_id: string;
  operation: string;
  outcome: string;
}

/**
 * The gateway's agent gate: decides each document once (per supergraph), refuses what the token
 * may not select before anything runs, and records every use with its outcome.
 */
export class AgentGate {
  private decisions = new WeakMap<DocumentNode, AgentRequirement>();

  constructor(
    private readonly surface: AgentSurface,
    private readonly record: (use: AgentTokenUse, traceId: string) => Promise<void>,
  ) {}

  schemaLoaded(): void {
    this.decisions = new WeakMap();
  }

  async run(
    schema: GraphQLSchema,
    principal: AgentPrincipal,
    request: { document: DocumentNode; operationName?: string | null; trace_id: string },
    execute: () => Promise<ExecutionResult>,
  ): Promise<ExecutionResult> {
    let requirement = this.decisions.get(request.document);
    if (!requirement) this.decisions.set(request.document, (requirement = agentRequirement(schema, this.surface, request.document)));
    const refusal = missingScope(requirement, principal.scopes, principal.wallet_ids.length > 0);
    const result: ExecutionResult = refusal ? { errors: [new GraphQLError(refusal.detail, { originalError: refusal, extensions: { ...refusal.extensions } })] } : await execute();
    const code = result.errors?.[0]?.extensions?.error_code;
    await this.record({ token_id: principal.token_id, operation: operationLabel(request), outcome: result.errors?.length ? (typeof code === "string" ? code : "error") : "ok" }, request.trace_id);
    return result;
  }
}

/** The operation's name, else its root fields: what a user reading the uses of a token recognises. */
function operationLabel({ document, operationName }: { document: DocumentNode; operationName?: string | null }): string {
  const operation = getOperationAST(document, operationName);
  if (!operation) return "unknown";
  if (operation.name) return operation.name.value;
  const fields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
  return `${operation.operation} { ${fields.join(" ")} }`;
}

const RECORD_USE = parse(`mutation ($token_id: String!, $operation: String!, $outcome: String!) {
  _record_agent_token_use(token_id: $token_id, operation: $operation, outcome: $outcome)
}`);

/** Writes uses through the agents subgraph, as the gateway. */
export function agentTokenUseRecorder(agents: FederatedClient): (use: AgentTokenUse, traceId: string) => Promise<void> {
  return async (use, traceId) => {
    await agents.query(RECORD_USE, { ...use }, traceId);
  };
}
