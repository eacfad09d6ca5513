import operations from "@apollo/federation-internals/dist/operations.js";
import { Kind, type DefinitionNode, type OperationDefinitionNode } from "graphql";

type Build = typeof operations.operationFromDocument;
type Operation = ReturnType<Build>;
type Schema = Parameters<Build>[0];

const built = new WeakMap<Schema, WeakMap<OperationDefinitionNode, { fragments: readonly DefinitionNode[]; operation: Operation }>>();
let installed = false;

/**
 * Apollo Gateway's executeQueryPlan rebuilds its own model of the operation (federation-internals'
 * `operationFromDocument`, with `{ validate: false }`) on every request, only to shape the answer
 * (`computeResponse`): a twentieth of a three-subgraph query's CPU. Its input is the operation and
 * fragment nodes of a document Apollo Server and the adapter parse once and keep, and the result
 * is only read, so the same nodes on the same API schema get the same Operation back. Any other
 * call (query planning's, with an operation name) and any failure (a GraphQLError the gateway
 * answers) go through as before. The gateway reads the function through the module's exports on
 * each call, so replacing the export is enough; @apollo/gateway and its internals are pinned.
 */
export function reuseGatewayOperations(): void {
  if (installed) return;
  installed = true;
  const build = operations.operationFromDocument;
  operations.operationFromDocument = (schema, document, options) => {
    const [first, ...fragments] = document.definitions;
    const cacheable = options?.validate === false && options.operationName === undefined && first?.kind === Kind.OPERATION_DEFINITION && fragments.every((node) => node.kind === Kind.FRAGMENT_DEFINITION);
    if (!cacheable) return build(schema, document, options);
    const hit = built.get(schema)?.get(first);
    if (hit && hit.fragments.length === fragments.length && hit.fragments.every((node, i) => node === fragments[i])) return hit.operation;
    const operation = build(schema, document, options);
    let bySchema = built.get(schema);
    if (!bySchema) built.set(schema, (bySchema = new WeakMap()));
    bySchema.set(first, { fragments, operation });
    return operation;
  };
}
