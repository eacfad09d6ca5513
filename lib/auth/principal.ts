import type { AgentTokenScope } from "../vocabulary/agents.ts";
import type { KeyPartition } from "./api-key.ts";

/**
 * Who is calling, as the gateway established it once per request. Subgraphs authorise on this
 * and never look at credential headers themselves.
 */
export type Principal = AnonymousPrincipal | UserPrincipal | AgentPrincipal | DashboardPrincipal | ApiKeyPrincipal | PintPrincipal | InternalPrincipal;

export interface AnonymousPrincipal {
  kind: "anonymous";
}

export interface UserPrincipal {
  kind: "user";
  via: "jwt" | "pat";
  /** "default" or "<org-id>:<env-id>" */
  environment_id: string;
  /** null when the JWT is valid but no user exists yet (POST /v0/user/ creates one) */
  user_id: string | null;
  /** for JWT callers: the provider name, issuer and subject */
  jwt?: {
    provider: string;
    issuer: string;
    subject: string;
    /** wallets the token vouches the subject controls (lib/auth/jwt-wallets.ts): proof for POST /v0/user/ */
    wallet_addresses?: string[];
  };
  /** for PAT callers: the token id and its scopes */
  pat?: { token_id: string; scopes: string[] };
}

/**
 * An agent token (`x-platform-token`): its user, narrowed to the token's scopes. A kind of its own,
 * not a `user`, so every check written for users refuses it unless it says otherwise: the gateway
 * lets it reach only AgentTool fields whose scope it holds (gateway/agent-access.ts), and
 * `requireUser` admits it for reads only.
 */
export interface AgentPrincipal {
  kind: "agent";
  token_id: string;
  user_id: string;
  environment_id: string;
  scopes: AgentTokenScope[];
  /** the wallets it may read; empty: every wallet of the user */
  wallet_ids: number[];
}

/** A dashboard user (Bearer session token from DASHBOARD_AUTH); organisation membership is checked per request. */
export interface DashboardPrincipal {
  kind: "dashboard";
  issuer: string;
  subject: string;
}

/** An identity-service API key (Bearer): its organisation, environment, partition and scopes. */
export interface ApiKeyPrincipal {
  kind: "api_key";
  key_id: string;
  org_id: string;
  env_id: string;
  partition: KeyPartition;
  scopes: string[];
}

/**
 * A PINT JWT (`x-platform-pint-token` on the identity host): the user who signed the mandate,
 * the scopes it grants and the third party (audience) it was granted to. Checked against the
 * mandate's row on every request, so revocation is immediate.
 */
export interface PintPrincipal {
  kind: "pint";
  /** the mandate's id (`pint_…`), the JWT's `jti` */
  mandate_id: string;
  user_id: string;
  /** from the PINT scope catalogue (lib/auth/pint-scopes.ts) */
  scopes: string[];
  audience: string;
  /** the organisation whose API key exchanged the mandate (the audience's owner) */
  org_id: string;
}

/** Another service of ours (the gateway resolving principals, the adapter's webhook receivers). */
export interface InternalPrincipal {
  kind: "internal";
  service: string;
}

export const ANONYMOUS: AnonymousPrincipal = { kind: "anonymous" };

/** The adapter acting as itself (webhook receivers, credential mode "internal"): subgraphs accept it for internal mutations. */
export const ADAPTER_PRINCIPAL: InternalPrincipal = { kind: "internal", service: "rest-adapter" };
