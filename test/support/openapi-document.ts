// Reading an OpenAPI document as a client does: error responses several operations share are
// `$ref`s to components/responses (rest-adapter/route-kit/openapi.ts), so tests follow them.

/** What `ref` (`#/components/…`) points at in `document`, or undefined when nothing is there. */
export function resolveRef(document: unknown, ref: string): any {
  if (!ref.startsWith("#/")) return undefined;
  let node: any = document;
  for (const part of ref.slice(2).split("/")) node = node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}

/** An operation's responses by status, each `$ref` replaced by the response it names. */
export function responsesOf(document: unknown, operation: { responses: Record<string, unknown> }): Record<string, any> {
  return Object.fromEntries(
    Object.entries(operation.responses).map(([status, response]) => {
      const ref = (response as { $ref?: string }).$ref;
      return [status, ref === undefined ? response : resolveRef(document, ref)];
    }),
  );
}

/** Every `$ref` in `value`. */
export function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.push(item);
      else refsIn(item, found);
    }
  return found;
}
