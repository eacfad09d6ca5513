import { execute, getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { BoundedMap } from "../bounded-map.ts";

/** One operation of one document (null: the document's only operation). */
interface Seen {
  runs: number;
  /** false: graphql-jit cannot run it the way graphql-js does (see `compilable`) */
  compilable?: boolean;
}

export interface CompiledOperationsOptions {
  /** runs on graphql-js before an operation is compiled: a client's one-off document never pays for compiling */
  compileAfter?: number;
  /** compiled operations kept (their generated code is some tens of KiB each); the oldest is dropped */
  maxCompiled?: number;
}

/**
 * Runs the operations of one schema, compiled by graphql-jit once an operation has run
 * `compileAfter` times, with graphql-js `execute` before that and wherever graphql-jit would
 * answer differently. graphql-jit turns an operation into one function that walks the selection
 * directly, instead of graphql-js interpreting the document field by field on every run (a feed
 * page is some 1,700 fields).
 *
 * The answer is graphql-js's, to the byte. Where graphql-jit differs, graphql-js runs:
 * - mutations and subscriptions are never compiled: they run once per request, and a mutation
 *   must never run twice (see the next point);
 * - variables graphql-jit refuses: it words the errors otherwise. No resolver has run yet, so
 *   graphql-js runs the operation and answers;
 * - an answer with more than one error (graphql-jit reports a null bubbling up a non-null field
 *   after the other errors, graphql-js in the order they happened), or with an error a resolver
 *   did not throw as a plain Error: a null where the schema says non-null (graphql-jit names a
 *   field selected twice `Type.(a,a)`), a value its scalar cannot serialize, a thrown GraphQLError
 *   (graphql-js passes a located one on as it is) or non-Error ("Unexpected error value: …").
 *   The query runs again on graphql-js, which answers: queries only read, and only such failed
 *   requests (a bug, or several failures at once) pay twice;
 * - an operation graphql-jit cannot compile.
 */
export class CompiledOperations {
  private readonly seen = new WeakMap<DocumentNode, Map<string | null, Seen>>();
  private readonly compiled: BoundedMap<Seen, CompiledQuery>;
  private readonly compileAfter: number;

  constructor(
    private readonly schema: GraphQLSchema,
    options: CompiledOperationsOptions = {},
  ) {
    this.compileAfter = options.compileAfter ?? 2;
    this.compiled = new BoundedMap(options.maxCompiled ?? 500);
  }

  async execute(document: DocumentNode, operationName: string | null | undefined, variableValues: Record<string, unknown> | undefined, contextValue: unknown): Promise<ExecutionResult> {
    const compiled = this.compiledFor(document, operationName ?? null);
    if (compiled) {
      const result = (await compiled.query(undefined, contextValue, variableValues ?? {})) as ExecutionResult;
      // graphql-js puts errors first; a serialised answer must not differ even in that
      if (answersAsGraphqlJs(result)) return result.errors ? { errors: result.errors, data: result.data } : result;
    }
    return execute({ schema: this.schema, document, operationName, variableValues, contextValue });
  }

  private compiledFor(document: DocumentNode, operationName: string | null): CompiledQuery | undefined {
    let operations = this.seen.get(document);
    if (!operations) this.seen.set(document, (operations = new Map()));
    let seen = operations.get(operationName);
    if (!seen) operations.set(operationName, (seen = { runs: 0 }));
    if (seen.compilable === false) return undefined;
    const compiled = this.compiled.get(seen);
    if (compiled) return compiled;
    if (++seen.runs <= this.compileAfter) return undefined;
    if (seen.compilable === undefined) seen.compilable = getOperationAST(document, operationName)?.operation === "query";
    if (!seen.compilable) return undefined;
    const made = compileQuery(this.schema, document, operationName ?? undefined);
    if (!isCompiledQuery(made)) {
      seen.compilable = false;
      return undefined;
    }
    this.compiled.set(seen, made);
    return made;
  }
}

/** Whether graphql-js answers the same (see `CompiledOperations`): no error, or one a resolver threw as a plain Error. */
function answersAsGraphqlJs(result: ExecutionResult): boolean {
  if (!result.errors) return true;
  if (!("data" in result) || result.errors.length > 1) return false;
  const cause = result.errors[0]!.originalError;
  return cause instanceof Error && !(cause instanceof GraphQLError);
}
