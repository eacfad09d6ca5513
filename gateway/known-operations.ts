import type { ApolloServerPlugin } from "@apollo/server";
import { Kind, type DocumentNode, type ExecutionResult } from "graphql";
import { documentNames } from "../lib/graphql/document-names.ts";
import { BoundedMap } from "../lib/bounded-map.ts";
import { JsonTextAnswers, stringifyJson } from "../lib/json-text.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { metricsEnabled, recordGraphqlOperation } from "../lib/metrics.ts";
import type { PreparedOperation } from "./gateway.ts";

/** A query Apollo Server parsed and validated against today's schema, under the operation name it was sent with. */
export interface KnownOperation extends PreparedOperation {
  operationName: string | undefined;
}

/** The gateway's executor for an operation already parsed and validated. */
export type RunKnown = (known: KnownOperation, variables: Record<string, unknown> | undefined, context: RequestContext) => Promise<ExecutionResult>;

/** A single-result answer, as Apollo Server would write it. */
export interface KnownAnswer {
  headers: { "cache-control": string; "content-type": string };
  body: string;
}

const KNOWN_OPERATIONS = 500;
/** Apollo Server's cache-control plugin's header for an answer that may not be cached */
const UNCACHEABLE = "no-store";

// Apollo Server's single-result media types for the Accept values clients send (checked against
// Apollo Server's own negotiation in test/e2e/platform/known-operations.test.ts); any other value
// is negotiated by Apollo Server
const JSON_TYPE = "application/json; charset=utf-8";
const GRAPHQL_RESPONSE_TYPE = "application/graphql-response+json; charset=utf-8";
export const KNOWN_ACCEPT_VALUES = new Map<string | undefined, string>([
  [undefined, JSON_TYPE],
  ["", JSON_TYPE],
  ["*/*", JSON_TYPE],
  ["application/json", JSON_TYPE],
  ["application/graphql-response+json", GRAPHQL_RESPONSE_TYPE],
  ["application/graphql-response+json, application/json;q=0.9", GRAPHQL_RESPONSE_TYPE],
]);

/**
 * Queries POSTed again skip Apollo Server's per-request pipeline (its HTTP parsing, the query's
 * SHA-256, the document cache, plugin hooks and response head): the document it parsed and
 * validated for the same text and operation name runs straight on the gateway's executor, as the
 * REST adapter's operations do. On the three-subgraph query that pipeline was a fifth of the
 * request's CPU.
 *
 * The answer is the one Apollo Server gives, byte for byte: only successful answers are written
 * here (data, no errors), for the Accept values above. Anything else is Apollo Server's:
 * mutations, GET, persisted queries and other extensions, a body Apollo would refuse, `@defer` and
 * `@stream`, an agent's operations (its gate records each use once), and an answer with errors,
 * whose read then runs again through Apollo Server, so only failing reads pay twice.
 */
export class KnownOperations {
  private readonly known = new BoundedMap<string, KnownOperation>(KNOWN_OPERATIONS);

  constructor(private readonly run: RunKnown) {}

  /** On every supergraph load: what was validated against the previous one no longer holds. */
  schemaLoaded(): void {
    this.known.clear();
  }

  /**
   * For Apollo Server's plugins: learns each POSTed query whose answer Apollo Server wrote with
   * data, no errors, and no head of its own but the cache-control plugin's `no-store` (our schemas
   * give no cache hints, so no answer may be cached): the answer the known path writes.
   */
  plugin(): ApolloServerPlugin<RequestContext> {
    const known = this.known;
    return {
      async requestDidStart({ request }) {
        if (request.http?.method !== "POST" || request.extensions != null) return;
        return {
          async willSendResponse({ source, document, operation, queryHash, response, overallCachePolicy }) {
            if (operation?.operation !== "query" || !document || source === undefined || known.has(source)) return;
            if (response.body.kind !== "single" || response.body.singleResult.errors || response.body.singleResult.data == null) return;
            // the cache-control plugin writes its `no-store` in this same hook, before or after this one
            const head = [...response.http.headers].filter(([name, value]) => name !== "cache-control" || value !== UNCACHEABLE);
            if ((response.http.status ?? 200) !== 200 || head.length > 0 || overallCachePolicy.policyIfCacheable() !== null || deliversIncrementally(document)) return;
            known.set(source, { source, document, operation, queryHash: queryHash!, operationName: request.operationName });
          },
        };
      },
    };
  }

  /** The answer to a known query's POST body, or undefined: Apollo Server answers it. */
  async answer(body: unknown, accept: string | undefined, context: RequestContext): Promise<KnownAnswer | undefined> {
    const contentType = KNOWN_ACCEPT_VALUES.get(accept);
    if (contentType === undefined || context.principal.kind === "agent" || !isRecord(body) || body.extensions != null) return undefined;
    const { query, operationName, variables } = body;
    if (typeof query !== "string" || (variables != null && !isRecord(variables))) return undefined;
    const known = this.known.get(query);
    if (known === undefined || (operationName ?? undefined) !== known.operationName) return undefined;
    const started = performance.now();
    // the answer is written here: resolvers may give values as JSON text (lib/json-text.ts), Apollo Server's run gets objects
    const jsonText = new JsonTextAnswers();
    const result = await this.run(known, (variables ?? undefined) as Record<string, unknown> | undefined, { ...context, json_text: jsonText });
    if (result.errors?.length || result.data == null) return undefined;
    if (metricsEnabled()) recordGraphqlOperation(known.operation.name?.value ?? known.operationName, "query", true, (performance.now() - started) / 1000);
    // Apollo Server's field order and its trailing newline (its prettyJSONStringify)
    const answer = { data: result.data, extensions: result.extensions };
    return { headers: { "cache-control": UNCACHEABLE, "content-type": contentType }, body: (jsonText.used ? stringifyJson(answer) : JSON.stringify(answer)) + "\n" };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** Whether the document uses `@defer` or `@stream`, whose answers Apollo Server writes as multipart. */
function deliversIncrementally(document: DocumentNode): boolean {
  return documentNames(document, Kind.DIRECTIVE, ["defer", "stream"]);
}
