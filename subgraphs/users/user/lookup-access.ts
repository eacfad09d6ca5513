import { PINT_SCOPE_FOR_LOOKUP_SCOPE } from "../../../lib/auth/pint-scopes.ts";
import type { Principal } from "../../../lib/auth/principal.ts";

/**
 * Which users an identity-service API key may see: those of its own organisation's environments
 * (environment ids are `<org-id>:<env-id>`), plus the default environment for the organisation
 * that IDENTITY_BOOTSTRAP provisions (it administers the default environment).
 */
export function visibleToKey(environmentId: string, principal: Principal, defaultOrganisationId: string | undefined): boolean {
  if (principal.kind !== "api_key") return false;
  return visibleToOrganisation(environmentId, principal.org_id, defaultOrganisationId);
}

/** The same rule by organisation id: users of `<org-id>:…` environments, plus default for the bootstrap organisation. */
export function visibleToOrganisation(environmentId: string, orgId: string, defaultOrganisationId: string | undefined): boolean {
  if (environmentId.startsWith(`${orgId}:`)) return true;
  return environmentId === "default" && orgId === defaultOrganisationId;
}

/**
 * A lookup field group is returned to the user themselves, to a key carrying its scope, or to a
 * PINT token whose mandate grants the matching PINT scope (idsvc.get_details ↔ identity.read,
 * idsvc.get_kyc ↔ kyc.read).
 */
export function grantsLookupScope(principal: Principal, scope: string): boolean {
  if (principal.kind === "user") return true;
  if (principal.kind === "pint") {
    const pintScope = PINT_SCOPE_FOR_LOOKUP_SCOPE[scope];
    return pintScope !== undefined && principal.scopes.includes(pintScope);
  }
  return principal.kind === "api_key" && principal.scopes.includes(scope);
}
