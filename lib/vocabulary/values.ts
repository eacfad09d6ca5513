import { validationError } from "../errors/app-error.ts";

/**
 * The value lists of the API (a status, a role, a kind) live once each, as `as const` arrays in
 * the module that owns the concept: here under lib/vocabulary/ for domain terms, or beside their
 * rules in lib/ (PAT_SCOPES, KEY_PARTITIONS, PINT_SIGNER_ROLES, AUTH_PROVIDER_NAMES). The TypeBox
 * schemas (`literalUnion`), the GraphQL enums (`graphqlEnum`) and the domain checks read them.
 */
export function isOneOf<const T extends readonly string[]>(values: T, value: unknown): value is T[number] {
  return typeof value === "string" && values.includes(value);
}

/** `value` when it is one of `values`; otherwise a GEN-422-001 item at `loc`, worded as the adapter's own enum refusals. */
export function requireOneOf<const T extends readonly string[]>(values: T, value: unknown, loc: (string | number)[]): T[number] {
  if (!isOneOf(values, value))
    throw validationError(loc, `Input should be ${values.map((v) => `'${v}'`).join(", ")}`, value, "enum", { expected: values.join(", ") });
  return value;
}
