/**
 * How a request's credential headers make its principal (gateway/request-principal.ts applies
 * it; in split mode the adapter signs the mode into the internal principal envelope, so the
 * gateway applies the same rule as the in-process client):
 *
 * - "none": nothing is read; the request is anonymous (GET /health answers whatever headers come).
 * - "optional": a credential that fails to verify (401) counts as absent (GET /v0/cli/config).
 * - "required": a credential that fails to verify is the caller's 401; a verified one spends its
 *   own budget (`user`, `api_key`). No credential at all is anonymous: resolvers decide.
 * - "verify": as "required", but the verified principal's own budget is not spent: the RPC host
 *   counts its keys by its own `rpc` rule.
 * - "internal": the adapter itself acts (webhook receivers, after verifying the provider's
 *   signature), as the internal principal only our services can present.
 */
export const CREDENTIAL_MODES = ["none", "optional", "required", "verify", "internal"] as const;
export type CredentialMode = (typeof CREDENTIAL_MODES)[number];

export function isCredentialMode(value: unknown): value is CredentialMode {
  return (CREDENTIAL_MODES as readonly unknown[]).includes(value);
}
