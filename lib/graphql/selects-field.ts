import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

/**
 * Whether the operation may select `name` on the object this field returns: through aliases,
 * inline fragments and named fragments, and whatever @skip/@include say (a field that may be
 * skipped still counts). A resolver uses it to leave out a lookup only that field needs.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((node) => {
      if (node.kind === Kind.FIELD) return node.name.value === name;
      if (node.kind === Kind.INLINE_FRAGMENT) return within(node.selectionSet);
      if (seen.has(node.name.value)) return false;
      seen.add(node.name.value);
      return within(info.fragments[node.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((field) => within(field.selectionSet));
}
