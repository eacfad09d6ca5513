// What an identity provider entry is (AUTH_PROVIDERS, DASHBOARD_AUTH, the sandbox issuers), apart
// from lib/config.ts, which reads them: the sandbox issuer makes entries and config uses it.
export const AUTH_PROVIDER_NAMES = ["provider_a", "provider_b", "siwe"] as const;

export interface AuthProviderConfig {
  name: string;
  issuer: string;
  jwks_uri?: string;
  /** PEM (SPKI) or a JWK object */
  public_key?: string | Record<string, unknown>;
  audience?: string | string[];
  /** only identity tokens (with linked-account claims) verify; access tokens fail */
  mode?: "app_id_only";
}
