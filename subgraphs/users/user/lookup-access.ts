import type { Principal } from "../../../lib/auth/principal.ts";

/**
 * Which users an identity-service API key may see: those of its own organisation's environments
 * (environment ids are `<org-id>:<env-id>`), plus the default environment for the organisation
 * that IDENTITY_BOOTSTRAP provisions (it administers the default environment).
 */
export function visibleToKey(environmentId: string, principal: Principal, defaultOrganisationId: string | undefined): boolean {
  if (principal.kind !== "api_key") return false;
  if (environmentId.startsWith(`${principal.org_id}:`)) return true;
  return environmentId === "default" && principal.org_id === defaultOrganisationId;
}

/** A lookup field group is returned to the user themselves, or to a key carrying its scope. */
export function grantsLookupScope(principal: Principal, scope: string): boolean {
  if (principal.kind === "user") return true;
  return principal.kind === "api_key" && principal.scopes.includes(scope);
}
