/** Credentials of the platform host (spec 5.1): `Authorization` is not one of them. */
export const PLATFORM_CREDENTIAL_HEADERS = ["x-platform-jwt", "x-platform-pat", "x-platform-token", "x-platform-orgid"] as const;

/** Credentials of the identity host (spec 5.2): API keys and dashboard sessions as Bearer, PINT JWTs. */
export const IDENTITY_CREDENTIAL_HEADERS = ["authorization", "x-platform-pint-token"] as const;

/** Every header that carries a credential on some surface (the GraphQL listener accepts them all). */
export const CREDENTIAL_HEADERS = [...PLATFORM_CREDENTIAL_HEADERS, ...IDENTITY_CREDENTIAL_HEADERS] as const;

export type CredentialHeaders = Record<string, string | string[] | undefined>;

/** A header's value (the first, when repeated). */
export function firstHeader(headers: CredentialHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether any of `names` was sent. */
export function hasAnyHeader(headers: CredentialHeaders, names: readonly string[]): boolean {
  return names.some((name) => headers[name] !== undefined);
}
