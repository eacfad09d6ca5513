/**
 * Who is calling, as the gateway established it once per request. Subgraphs authorise on this
 * and never look at credential headers themselves.
 */
export type Principal = AnonymousPrincipal | UserPrincipal | InternalPrincipal;

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
  jwt?: { provider: string; issuer: string; subject: string };
  /** for PAT callers: the token id and its scopes */
  pat?: { token_id: string; scopes: string[] };
}

/** Another service of ours (the gateway resolving principals, the adapter's webhook receivers). */
export interface InternalPrincipal {
  kind: "internal";
  service: string;
}

export const ANONYMOUS: AnonymousPrincipal = { kind: "anonymous" };
