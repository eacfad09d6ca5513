// Limits on the shape of a GraphQL document (GraphQL Armor rules, graphql-js's token limit and a
// length), so one request cannot fan out into thousands of resolver calls or a huge parse.
//
//   GRAPHQL_LIMITS          JSON object, each field optional, a positive integer:
//                           {"max_depth": 10, "max_introspection_depth": 21, "max_aliases": 15,
//                            "max_tokens": 2000, "max_document_bytes": 32768, "max_cost": 5000,
//                            "max_directives": 50}
//                           max_document_bytes is checked before anything parses a document, and
//                           the public /graphql body may hold it and 32 KiB of variables (64 KiB).
//   GRAPHQL_INTROSPECTION   true | false. Unset: false when NODE_ENV=production, true otherwise.
//   GRAPHQL_IDE             true | false: GraphiQL for browsers on the public /graphql and
//                           /graphql/agent (gateway/graphql-ide.ts). Unset: false when NODE_ENV=production, true otherwise.
import {
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { ConfigError } from "../config-error.ts";
import { envText, isRecord, type Env } from "../parse.ts";

export interface GraphqlLimits {
  /** nesting of selections (fragments count as a level), introspection fields included */
  max_depth: number;
  /**
   * the same for an operation that selects only introspection (`__schema`, `__type`,
   * `__typename`): what tools send to read the schema is deeper than any data query
   */
  max_introspection_depth: number;
  /** aliased fields per operation: `a1: siwe_nonce a2: siwe_nonce …` */
  max_aliases: number;
  /** lexical tokens per document, checked while parsing (comments, whitespace and commas are not tokens) */
  max_tokens: number;
  /**
   * UTF-8 bytes per document, checked before parsing: bounds what max_tokens does not count, so
   * a short document padded with comments is not lexed to its end
   */
  max_document_bytes: number;
  /** GraphQL Armor's cost: objects 2, scalars 1, times 1.5 per level of depth */
  max_cost: number;
  max_directives: number;
}

export interface GraphqlLimitConfig {
  limits: GraphqlLimits;
  introspection: boolean;
  ide: boolean;
}

/**
 * Generous for every REST route's operation (the largest: depth 5, cost 145, 128 tokens, 901
 * bytes, one alias, two directives; a test keeps them inside) and for dashboards; far below a
 * document that hurts. max_introspection_depth is exactly what graphql-js's getIntrospectionQuery()
 * needs at its default typeDepth (9 `ofType` levels, 21 as counted here; a test keeps it inside);
 * that query is 2 KB. 32 KiB holds 2000 tokens as graphql-js prints them (8 to 14 bytes a token).
 */
export const DEFAULT_GRAPHQL_LIMITS: Readonly<GraphqlLimits> = Object.freeze({
  max_depth: 10,
  max_introspection_depth: 21,
  max_aliases: 15,
  max_tokens: 2000,
  max_document_bytes: 32_768,
  max_cost: 5000,
  max_directives: 50,
});

const LIMIT_NAMES = Object.keys(DEFAULT_GRAPHQL_LIMITS) as (keyof GraphqlLimits)[];

function parseLimits(raw: string | undefined): GraphqlLimits {
  const limits = { ...DEFAULT_GRAPHQL_LIMITS };
  if (raw === undefined) return limits;
  const fail = (problem: string): never => {
    throw new ConfigError("GRAPHQL_LIMITS", problem);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    fail(`expected JSON, ${(error as Error).message}`);
  }
  if (!isRecord(parsed)) return fail(`expected a JSON object with ${LIMIT_NAMES.join(", ")}`);
  for (const [name, value] of Object.entries(parsed)) {
    if (!(LIMIT_NAMES as string[]).includes(name)) fail(`unknown limit "${name}" (expected ${LIMIT_NAMES.join(", ")})`);
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) fail(`${name}: expected a positive integer`);
    limits[name as keyof GraphqlLimits] = value as number;
  }
  return limits;
}

/** A switch for what helps a developer and tells an attacker about the API: off by default in production. */
function developmentSwitch(env: Env, name: string): boolean {
  const raw = envText(env, name)?.toLowerCase();
  if (raw === undefined) return envText(env, "NODE_ENV") !== "production";
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

export function loadGraphqlLimitConfig(env: Env): GraphqlLimitConfig {
  return { limits: parseLimits(envText(env, "GRAPHQL_LIMITS")), introspection: developmentSwitch(env, "GRAPHQL_INTROSPECTION"), ide: developmentSwitch(env, "GRAPHQL_IDE") };
}

/** The armor rules report a validation error (400, GRAPHQL_VALIDATION_FAILED) rather than throw out of validate(). */
const report = { propagateOnRejection: false, onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)] };

/** The meta-fields an introspection-only operation is made of (the root type's only ones). */
export const INTROSPECTION_FIELDS: ReadonlySet<string> = new Set(["__schema", "__type", "__typename"]);

/** The root fields a selection set selects, through its fragments. */
function rootFieldNames(selectionSet: SelectionSetNode, context: ValidationContext, seen: Set<string> = new Set()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(selection.selectionSet, context, seen);
    if (seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    const fragment = context.getFragment(selection.name.value);
    return fragment ? rootFieldNames(fragment.selectionSet, context, seen) : [];
  });
}

/**
 * GraphQL Armor's depth rule counting every field: its `ignoreIntrospection` (on by default) skips
 * whatever sits under `__schema`, which let `{ __schema { types { ofType { ofType … } } } }` run
 * 200 levels deep. An operation of introspection fields only gets max_introspection_depth (the
 * standard introspection query is 21 deep); any other operation max_depth, so schema and data
 * asked for together get no allowance.
 */
export function depthRule(limits: GraphqlLimits): ValidationRule {
  const regular = maxDepthRule({ n: limits.max_depth, ignoreIntrospection: false, ...report });
  const introspection = maxDepthRule({ n: limits.max_introspection_depth, ignoreIntrospection: false, ...report });
  return (context) => {
    const visitors = { regular: regular(context), introspection: introspection(context) };
    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const names = rootFieldNames(operation.selectionSet, context);
        const introspectionOnly = names.length > 0 && names.every((name) => INTROSPECTION_FIELDS.has(name));
        (introspectionOnly ? visitors.introspection : visitors.regular).onOperationDefinitionEnter(operation);
      },
    };
  };
}

/** Validation rules for Apollo Server's `validationRules` and for checking operations up front. */
export function limitRules(limits: GraphqlLimits): ValidationRule[] {
  return [
    depthRule(limits),
    maxAliasesRule({ n: limits.max_aliases, ...report }),
    costLimitRule({ maxCost: limits.max_cost, ...report }),
    maxDirectivesRule({ n: limits.max_directives, ...report }),
  ] as ValidationRule[];
}

/** Parse options that enforce the token limit (graphql-js aborts the parse past it). */
export function limitParseOptions(limits: GraphqlLimits): { maxTokens: number } {
  return { maxTokens: limits.max_tokens };
}

/**
 * Why a document is refused before it is parsed, in graphql-js's words for the token limit, or
 * undefined: a comparison of lengths, where counting comments as tokens would take a second lex.
 */
export function documentBeyondLimits(source: string, limits: GraphqlLimits): string | undefined {
  const max = limits.max_document_bytes;
  // a UTF-16 code unit is 1 to 3 UTF-8 bytes: only a length in between needs its bytes counted
  if (source.length * 3 <= max || (source.length <= max && Buffer.byteLength(source) <= max)) return undefined;
  return `Syntax Error: Document contains more than ${max} bytes. Parsing aborted.`;
}

/** Room for a public /graphql request's variables beside its document: the largest input (a SIWE smart-account signature) is 32 KiB of hex, as on REST. */
const VARIABLES_BYTES = 32 * 1024;

/** The public /graphql body limit: a document of max_document_bytes and its variables (64 KiB by default, a REST route's). */
export function graphqlBodyLimit(limits: GraphqlLimits): number {
  return limits.max_document_bytes + VARIABLES_BYTES;
}

/**
 * The limits a split-mode subgraph's listener applies (subgraphs/http.ts): the ones on parsing and
 * nesting, with room for what the query planner makes of a document within them. An entity fetch
 * nests its selections in `_entities { ... on T { … } }`, two levels where the path above had at
 * least one, and adds `__typename`, keys and @requires selections (GET /v0/accounts: depth 7 and
 * 55 tokens at the gateway, 8 and 76 in its finance fetch; a test plans every REST operation).
 * Aliases, cost and directives stay the gateway's: the planner's fetches differ there by design
 * (aliases of its own, keys and `__typename` one level deeper), and only the gateway and other
 * holders of INTERNAL_SECRET get past a subgraph's signature check to its parser.
 */
export function subgraphLimits(limits: GraphqlLimits): GraphqlLimits {
  return { ...limits, max_depth: limits.max_depth + 1, max_tokens: 2 * limits.max_tokens, max_document_bytes: 2 * limits.max_document_bytes };
}

/** Which limit a (valid) operation exceeds, as `/graphql` would report it, or undefined when it passes them all. */
export function operationBeyondLimits(schema: GraphQLSchema, source: string, limits: GraphqlLimits): string | undefined {
  const tooLong = documentBeyondLimits(source, limits);
  if (tooLong) return tooLong;
  let document: DocumentNode;
  try {
    document = parse(source, limitParseOptions(limits));
  } catch (error) {
    return (error as GraphQLError).message;
  }
  const errors = validate(schema, document, limitRules(limits));
  return errors.length > 0 ? errors.map((e) => e.message).join("; ") : undefined;
}
