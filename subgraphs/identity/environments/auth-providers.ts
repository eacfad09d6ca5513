import type { JwksUriPolicy } from "../../../lib/auth/jwks-fetch.ts";
import { AUTH_PROVIDER_NAMES, ConfigError, parseAuthProviders, type AuthProviderConfig } from "../../../lib/config.ts";
import { validationError } from "../../../lib/errors/app-error.ts";

const FIELD = "auth_providers";

/** `auth_providers[0].issuer` (a ConfigError's variable) → `["auth_providers", 0, "issuer"]` */
function locOf(variable: string): (string | number)[] {
  return [...variable.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[2]!));
}

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[key] : undefined;
  return value ?? null;
}

/**
 * An environment's `auth_providers` as a dashboard sends them: exactly the rules of
 * AUTH_PROVIDERS (lib/config.ts `parseAuthProviders`: `name` provider_a, provider_b or siwe,
 * non-empty `issuer`, `jwks_uri` (https to a public host; `jwksPolicy` may admit loopback http)
 * or `public_key` (PEM or JWK) unless siwe, `audience` non-empty string or strings, `mode`
 * app_id_only), plus one issuer per entry, since the issuer picks the provider. A violation is a
 * 422 validation item at `auth_providers[i].<field>`.
 */
export function validateAuthProviders(value: unknown, jwksPolicy: JwksUriPolicy): AuthProviderConfig[] {
  let providers: AuthProviderConfig[];
  try {
    providers = parseAuthProviders(value, FIELD, AUTH_PROVIDER_NAMES, jwksPolicy);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const loc = locOf(error.variable);
    throw validationError(loc, `Value error, ${error.problem}`, valueAt(value, loc.slice(1)));
  }
  const seen = new Map<string, number>();
  providers.forEach((provider, index) => {
    const earlier = seen.get(provider.issuer);
    if (earlier !== undefined)
      throw validationError([FIELD, index, "issuer"], `Value error, issuer already used by ${FIELD}[${earlier}]`, provider.issuer);
    seen.set(provider.issuer, index);
  });
  return providers;
}

/**
 * The stored entries, each checked again with the same rules: an entry that does not validate
 * (edited in the database by hand) is left out and reported, never trusted for verification.
 */
export function storedAuthProviders(value: unknown, jwksPolicy: JwksUriPolicy, onInvalid: (index: number, problem: string) => void = () => {}): AuthProviderConfig[] {
  if (!Array.isArray(value)) return [];
  const providers: AuthProviderConfig[] = [];
  value.forEach((entry, index) => {
    try {
      providers.push(...parseAuthProviders([entry], FIELD, AUTH_PROVIDER_NAMES, jwksPolicy));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      onInvalid(index, error.problem);
    }
  });
  return providers;
}
