import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

/** selectsField's answers by field node: a node is of one document, whose fragments do not change. */
const answers = new WeakMap<FieldNode, Map<string, boolean>>();

/**
 * Whether the operation may select `name` on the object this field returns: through aliases,
 * inline fragments and named fragments, and whatever @skip/@include say (a field that may be
 * skipped still counts). A resolver uses it to leave out a lookup only that field needs. The
 * answer depends on the document alone, so a field selected once is walked once per name.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const field = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  let known = field && answers.get(field);
  const answer = known?.get(name);
  if (answer !== undefined) return answer;
  const selected = info.fieldNodes.some((node) => within(info, name, node.selectionSet, new Set()));
  if (field) {
    if (!known) answers.set(field, (known = new Map()));
    known.set(name, selected);
  }
  return selected;
}

function within(info: GraphQLResolveInfo, name: string, set: SelectionSetNode | undefined, seen: Set<string>): boolean {
  for (const node of set?.selections ?? []) {
    if (node.kind === Kind.FIELD) {
      if (node.name.value === name) return true;
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      if (within(info, name, node.selectionSet, seen)) return true;
    } else if (!seen.has(node.name.value)) {
      seen.add(node.name.value);
      if (within(info, name, info.fragments[node.name.value]?.selectionSet, seen)) return true;
    }
  }
  return false;
}
