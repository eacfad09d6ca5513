import { BREAK, Kind, visit, type ASTVisitor, type DocumentNode } from "graphql";

/** Whether the document, fragments included, has a field or a directive (`kind`) named one of `names`. */
export function documentNames(document: DocumentNode, kind: Kind.FIELD | Kind.DIRECTIVE, names: readonly string[]): boolean {
  let found = false;
  const enter = (node: { name: { value: string } }) => {
    if (!names.includes(node.name.value)) return undefined;
    found = true;
    return BREAK;
  };
  visit(document, { [kind]: enter } as ASTVisitor);
  return found;
}
