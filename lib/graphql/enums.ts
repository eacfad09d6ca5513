import { registerEnumType } from "type-graphql";

/**
 * A GraphQL enum over a vocabulary array (lib/vocabulary/, or the lib/ module owning the list):
 * each value is its own name, so the JSON on the wire is the same string a String field carried,
 * and the SDL lists the values. Inputs take it too: GraphQL refuses any other value before a
 * resolver runs, so the domain function does not check it again (`requireOneOf` is for the String
 * arguments no enum guards yet). Every value must be a GraphQL name (letters, digits, `_`).
 */
export function graphqlEnum<const T extends readonly string[]>(values: T, name: string, description: string): { [K in T[number]]: K } {
  const enumObject = Object.fromEntries(values.map((value) => [value, value])) as { [K in T[number]]: K };
  registerEnumType(enumObject, { name, description });
  return enumObject;
}
