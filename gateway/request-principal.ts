// The one request → principal rule, used by every way into the gateway: the adapter's
// in-process client (one process), the gateway's internal listener (split mode: the adapter signs
// the route's credential mode into the principal envelope) and the public /graphql. So a
// credential case answers the same whichever way it arrives, and spends the same budgets.
import type { CredentialHeaders } from "../lib/auth/credential-headers.ts";
import type { CredentialMode } from "../lib/auth/credential-mode.ts";
import { ADAPTER_PRINCIPAL, ANONYMOUS, type Principal } from "../lib/auth/principal.ts";
import { AppError } from "../lib/errors/app-error.ts";
import type { Authenticator } from "./authenticate.ts";

export interface PrincipalRequest {
  /** how the credential headers count (lib/auth/credential-mode.ts) */
  credentials: CredentialMode;
  /** the listener's credential headers of the request */
  headers: CredentialHeaders;
  trace_id: string;
  /** the client's address as the listener facing it saw it: failed verifications and unverified credentials count on it */
  client_address: string;
  /** units of the budget the request spends (a /graphql mutation: one per root field); default 1 */
  cost?: number;
  /**
   * The listener faces the client and nothing counted the request yet (the public /graphql): a
   * request without any credential header counts per client address here. The adapter counts
   * those itself before routing (rest-adapter/route-kit/app.ts, RateLimitedBy), so its requests do not.
   */
  countAddress?: boolean;
}

/** The principal of a request, counted as its credential mode says; a catalogue error (401, 429) otherwise. */
export async function requestPrincipal(authenticator: Authenticator, request: PrincipalRequest): Promise<Principal> {
  const counted = { clientAddress: request.client_address, cost: request.cost, countAddress: request.countAddress };
  switch (request.credentials) {
    case "none":
      return ANONYMOUS;
    case "internal":
      return ADAPTER_PRINCIPAL;
    case "verify":
      return authenticator.verify(request.headers, request.trace_id, counted);
    case "required":
      return authenticator.authenticate(request.headers, request.trace_id, counted);
    case "optional":
      try {
        return await authenticator.authenticate(request.headers, request.trace_id, counted);
      } catch (error) {
        // failures still counted against `auth_failure`, and a 429 stays a 429
        if (error instanceof AppError && error.status === 401) return ANONYMOUS;
        throw error;
      }
  }
}
