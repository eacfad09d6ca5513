// What a /graphql request spends of its caller's rate-limit budget: a query counts once, a
// mutation once per root field it runs. Each root field of a mutation is a separate write
// (`mutation { a1: siwe_nonce { nonce } a2: siwe_nonce { nonce } … }` inserts once per alias),
// so a request with more of them than the budget has left is refused before any of them runs.
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";

/** Far above any mutation worth running; a larger document is refused by the gateway's own token limit anyway. */
const MAX_TOKENS = 10_000;

/** The body's (or query string's) `query` and `operationName`, as a GraphQL-over-HTTP client sends them. */
export function requestCost(payload: unknown): number {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return 1;
  const { query, operationName } = payload as { query?: unknown; operationName?: unknown };
  // the cheap test first: most requests are queries and need no second parse
  if (typeof query !== "string" || !query.includes("mutation")) return 1;
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens: MAX_TOKENS });
  } catch {
    return 1; // the gateway answers the syntax error without running anything
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = typeof operationName === "string" && operationName !== "" ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (operation?.operation !== "mutation") return 1;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const keys = new Set<string>();
  collectRootFields(operation.selectionSet, fragments, keys, new Set());
  return Math.max(1, keys.size);
}

/**
 * Response keys (alias, else field name) of the root selection: fields with the same key are
 * merged and run once, so they count once; `__typename` runs nothing.
 */
function collectRootFields(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, keys: Set<string>, visited: Set<string>): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== "__typename") keys.add(selection.alias?.value ?? selection.name.value);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectRootFields(selection.selectionSet, fragments, keys, visited);
    } else if (!visited.has(selection.name.value)) {
      visited.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) collectRootFields(fragment.selectionSet, fragments, keys, visited);
    }
  }
}
