import { parse } from "graphql";
import { BoundedMap } from "../lib/bounded-map.ts";
import { firstHeader as header, hasAnyHeader, PLATFORM_CREDENTIAL_HEADERS, type CredentialHeaders } from "../lib/auth/credential-headers.ts";
import { parseOrgId } from "../lib/auth/orgid.ts";
import { looksLikeApiKey } from "../lib/auth/api-key.ts";
import { isExpiredJwt, JwtVerifier } from "../lib/auth/jwt-verifier.ts";
import { walletAddressesVouchedBy } from "../lib/auth/jwt-wallets.ts";
import type { SigningKey } from "../lib/auth/signing-key.ts";
import type { Config } from "../lib/config.ts";
import { ANONYMOUS, type AgentPrincipal, type ApiKeyPrincipal, type PintPrincipal, type Principal } from "../lib/auth/principal.ts";
import { AppError, appError } from "../lib/errors/app-error.ts";
import type { ErrorCode } from "../lib/errors/catalogue.ts";
import type { RateLimitRuleName } from "../lib/rate-limit/config.ts";
import { limit, type RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { AuthFailureBudgets, presentedCredential, presentsCredential } from "./auth-failures.ts";
import { IdentityEnvironmentResolver, type EnvironmentResolver } from "./environments.ts";
import { FederatedClient, type SubgraphTransport } from "../lib/graphql/federated-client.ts";

export type { CredentialHeaders };

const JWT_PRINCIPAL = parse(`query ($environment_id: String!, $issuer: String!, $subject: String!) {
  principal: _principal_for_jwt(environment_id: $environment_id, issuer: $issuer, subject: $subject) { user_id }
}`);
const PAT_PRINCIPAL = parse(`query ($token: String!) {
  principal: _principal_for_pat(token: $token) { user_id environment_id token_id scopes }
}`);

const AGENT_TOKEN_PRINCIPAL = parse(`query ($token: String!) {
  principal: _principal_for_agent_token(token: $token) { token_id user_id environment_id scopes wallet_ids }
}`);

const API_KEY_PRINCIPAL = parse(`query ($key: String!) {
  principal: _principal_for_api_key(key: $key) { key_id org_id env_id partition scopes }
}`);

const PINT_PRINCIPAL = parse(`query ($token: String!) {
  principal: _principal_for_pint(token: $token) { mandate_id user_id scopes audience org_id }
}`);


export interface AuthenticatorOptions {
  environments: EnvironmentResolver;
  /** issuers of dashboard session tokens (DASHBOARD_AUTH) */
  dashboard: JwtVerifier;
  /** the users, identity and agents subgraphs, queried as the gateway */
  users: FederatedClient;
  identity: FederatedClient;
  agents: FederatedClient;
  /** per user and per API key (spec 8), failed verifications; absent: no limit (tests of other concerns) */
  rateLimits?: RateLimits;
}

/** Who presents the credential, and what the request spends. */
export interface AuthenticateRequest {
  /** the client's address (split mode: as the adapter saw it, signed) */
  clientAddress: string;
  /** units of the budget the request spends (a /graphql mutation: one per root field); default 1 */
  cost?: number;
  /** count a request without any credential header per address too (see PrincipalRequest.countAddress) */
  countAddress?: boolean;
}

/**
 * Which budgets a principal spends, checked in order: users (and dashboard sessions) per user,
 * keys and PINTs per key. An agent token spends its user's budget and then one of its own: minting
 * tokens never multiplies what a user may send (issue 26). The user's comes first, so a request
 * the user's budget refuses spends nothing of the token's.
 */
function rateLimitBuckets(principal: Principal): { key: string; rule: RateLimitRuleName }[] | undefined {
  switch (principal.kind) {
    case "user":
      return [{ key: `user:${principal.user_id ?? `${principal.environment_id}:${principal.jwt?.issuer}:${principal.jwt?.subject}`}`, rule: "user" }];
    case "agent":
      return [
        { key: `user:${principal.user_id}`, rule: "user" },
        { key: `agent:${principal.token_id}`, rule: "user" },
      ];
    case "dashboard":
      return [{ key: `dashboard:${principal.issuer}:${principal.subject}`, rule: "user" }];
    case "api_key":
      return [{ key: `api_key:${principal.key_id}`, rule: "api_key" }];
    case "pint":
      return [{ key: `pint:${principal.mandate_id}`, rule: "api_key" }];
    default:
      return undefined;
  }
}

/**
 * Verifies a request's credentials once, for the whole query plan. Platform host (spec 5.1):
 * `x-platform-orgid` picks the environment, `x-platform-jwt` is verified against its providers,
 * `x-platform-pat` is looked up, `x-platform-token` is refused until agent tokens exist. Identity
 * host (spec 5.2): `Authorization: Bearer` carries an API key (looked up by hash on every request,
 * so revocation is immediate) or a dashboard session token (DASHBOARD_AUTH); `x-platform-pint-token`
 * carries a PINT JWT, checked against its mandate on every request (it wins over `Authorization`
 * when both are sent). The adapter passes
 * each listener only its own credential headers, so `Authorization` never counts on the platform host.
 */
export class Authenticator {
  /** positive results only: a subject's user id never changes, but a missing user may be created any time */
  private readonly userIds = new BoundedMap<string, string>(10_000);

  /** failed verifications per credential and per address (gateway/auth-failures.ts) */
  private readonly failures: AuthFailureBudgets | undefined;

  constructor(private readonly options: AuthenticatorOptions) {
    this.failures = options.rateLimits && new AuthFailureBudgets(options.rateLimits);
  }

  /**
   * The principal, counted: a verified user or key against its own budget (429 once spent), a
   * credential that names no one (`x-platform-orgid` alone) against the client address. A request
   * with no credential header at all is counted per address only with `countAddress` (the public
   * /graphql); the adapter counts those itself before routing.
   */
  async authenticate(headers: CredentialHeaders, traceId: string, request: AuthenticateRequest): Promise<Principal> {
    const principal = await this.verify(headers, traceId, request);
    const rateLimits = this.options.rateLimits;
    if (rateLimits && (request.countAddress || presentsCredential(headers))) {
      const buckets = rateLimitBuckets(principal) ?? [{ key: `ip:${request.clientAddress}`, rule: "ip" as const }];
      for (const bucket of buckets) await limit(rateLimits, bucket.key, bucket.rule, request.cost);
    }
    return principal;
  }

  /**
   * The principal, not counted against its own budget (the RPC host counts keys by its own
   * rule), but failed verifications are, per presented credential and per address: a credential
   * that spent its `auth_failure` budget is refused (429) before verifying; an address over its
   * `auth_failure_address` budget gets 429 for failing attempts only, never for a credential that
   * verifies (gateway/auth-failures.ts). A genuine but expired JWT counts against nothing.
   */
  async verify(headers: CredentialHeaders, traceId: string, request: AuthenticateRequest): Promise<Principal> {
    const credential = presentedCredential(headers);
    if (!this.failures || credential === undefined) return this.resolve(headers, traceId);
    const attempt = await this.failures.begin(request.clientAddress, credential);
    let principal: Principal;
    try {
      principal = await this.resolve(headers, traceId);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 401) throw error;
      throw (await attempt.settle(isGenuineButExpired(error) ? "expired" : "failed")) ?? error;
    }
    await attempt.settle("verified");
    return principal;
  }

  /** The principal, nothing counted: use `authenticate` or `verify` for requests. */
  async resolve(headers: CredentialHeaders, traceId: string): Promise<Principal> {
    if (hasAnyHeader(headers, PLATFORM_CREDENTIAL_HEADERS)) return this.platform(headers, traceId);
    // a PINT JWT (spec 5.2.6) is the credential on its own: the identity subgraph verifies it and reads its mandate (revocation is immediate)
    const pint = header(headers, "x-platform-pint-token");
    if (pint !== undefined) return this.pint(pint, traceId);
    const authorization = header(headers, "authorization");
    if (authorization !== undefined) return this.identityHost(authorization, traceId);
    return ANONYMOUS;
  }

  private async pint(token: string, traceId: string): Promise<Principal> {
    const { principal } = await this.lookup(this.options.identity, PINT_PRINCIPAL, { token: token.trim() }, traceId);
    return { kind: "pint", ...(principal as Omit<PintPrincipal, "kind">) };
  }

  /** The identity host's Bearer credential: an API key (by its prefix) or a dashboard session JWT. */
  private async identityHost(authorization: string, traceId: string): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) throw appError("IDS-401-001", "Send the credential as Authorization: Bearer <token>.");
    const token = match[1]!;
    if (looksLikeApiKey(token)) {
      const { principal } = await this.lookup(this.options.identity, API_KEY_PRINCIPAL, { key: token }, traceId);
      if (!principal) throw appError("IDS-401-001");
      return { kind: "api_key", ...(principal as Omit<ApiKeyPrincipal, "kind">) };
    }
    try {
      const verified = await this.options.dashboard.verify(token);
      return { kind: "dashboard", issuer: verified.issuer, subject: verified.subject };
    } catch (error) {
      throw appError("IDS-401-002", error instanceof AppError ? error.detail.replace("JWT", "session token") : undefined, { cause: error });
    }
  }

  private async platform(headers: CredentialHeaders, traceId: string): Promise<Principal> {
    const orgEnv = parseOrgId(header(headers, "x-platform-orgid"));
    const environment = await this.options.environments.resolve(orgEnv, traceId);
    if (!environment) throw appError("USR-401-003");

    const agentToken = header(headers, "x-platform-token");
    if (agentToken !== undefined) {
      // one credential decides who calls: an agent token next to its user's credential would be ambiguous
      if (header(headers, "x-platform-jwt") !== undefined || header(headers, "x-platform-pat") !== undefined)
        throw appError("USR-401-005", "Send x-platform-token on its own, without x-platform-jwt or x-platform-pat.");
      const { principal } = await this.lookup(this.options.agents, AGENT_TOKEN_PRINCIPAL, { token: agentToken.trim() }, traceId);
      const found = await this.tokenInEnvironment(principal as Omit<AgentPrincipal, "kind"> | null, orgEnv !== null, environment.environment_id, "USR-401-005", traceId);
      return { kind: "agent", ...found };
    }

    const jwt = header(headers, "x-platform-jwt");
    if (jwt !== undefined) {
      const verified = await environment.verifier.verify(jwt);
      const identity = { environment_id: environment.environment_id, issuer: verified.issuer, subject: verified.subject };
      const key = `${identity.environment_id}\n${identity.issuer}\n${identity.subject}`;
      let userId = this.userIds.get(key) ?? null;
      if (userId === null) {
        const { principal } = await this.lookup(this.options.users, JWT_PRINCIPAL, identity, traceId);
        userId = (principal as { user_id: string | null }).user_id;
        if (userId !== null) this.userIds.set(key, userId);
      }
      return {
        kind: "user",
        via: "jwt",
        environment_id: environment.environment_id,
        user_id: userId,
        jwt: { provider: verified.provider, issuer: verified.issuer, subject: verified.subject, wallet_addresses: walletAddressesVouchedBy(verified) },
      };
    }

    const pat = header(headers, "x-platform-pat");
    if (pat !== undefined) {
      const { principal } = await this.lookup(this.options.users, PAT_PRINCIPAL, { token: pat }, traceId);
      const found = await this.tokenInEnvironment(principal as { user_id: string; environment_id: string; token_id: string; scopes: string[] } | null, orgEnv !== null, environment.environment_id, "USR-401-004", traceId);
      return { kind: "user", via: "pat", environment_id: found.environment_id, user_id: found.user_id, pat: { token_id: found.token_id, scopes: found.scopes } };
    }
    return ANONYMOUS;
  }

  /**
   * A token the users or agents service found (PAT, agent token), checked against the request's
   * environment: the token names its user's environment, and an explicit x-platform-orgid must
   * agree with it (`refusal` otherwise, as for an unknown token); without the header, a token of a
   * named environment's user counts only while that environment is live and active (USR-401-003).
   */
  private async tokenInEnvironment<T extends { environment_id: string }>(found: T | null, orgIdGiven: boolean, environmentId: string, refusal: ErrorCode, traceId: string): Promise<T> {
    if (!found || (orgIdGiven && found.environment_id !== environmentId)) throw appError(refusal);
    if (!orgIdGiven && found.environment_id !== environmentId && !(await this.environmentOf(found.environment_id, traceId))) throw appError("USR-401-003");
    return found;
  }

  /** A user's environment by its id (`<org-id>:<env-id>`), or null when it is gone or inactive. */
  private async environmentOf(environmentId: string, traceId: string) {
    const separator = environmentId.indexOf(":");
    if (separator <= 0) return null;
    return this.options.environments.resolve({ org_id: environmentId.slice(0, separator), env_id: environmentId.slice(separator + 1) }, traceId);
  }

  private lookup(subgraph: FederatedClient, document: ReturnType<typeof parse>, variables: Record<string, unknown>, traceId: string): Promise<Record<string, unknown>> {
    return subgraph.query<Record<string, unknown>>(document, variables, traceId);
  }

}

/** A credential whose signature verified but whose life is over: a PINT token's (PINT-401-004, found by the identity subgraph) or a JWT's. */
function isGenuineButExpired(error: AppError): boolean {
  return error.code === "PINT-401-004" || isExpiredJwt(error);
}

/**
 * The gateway's authenticator as both run modes build it: platform JWTs against AUTH_PROVIDERS
 * (default environment) or the identity environment named by `x-platform-orgid`, dashboard
 * sessions against DASHBOARD_AUTH, and the users and identity subgraphs for lookups (in memory or
 * over signed HTTP, whichever transports are given), queried as the gateway.
 */
export function createAuthenticator(options: {
  config: Pick<Config, "authProviders" | "dashboardAuth" | "environmentCacheTtlMs" | "jwksPolicy">;
  signingKey: SigningKey;
  users: SubgraphTransport;
  identity: SubgraphTransport;
  agents: SubgraphTransport;
  rateLimits: RateLimits;
}): Authenticator {
  const { config, signingKey } = options;
  const identity = new FederatedClient("identity", options.identity, "gateway");
  return new Authenticator({
    environments: new IdentityEnvironmentResolver({
      identity,
      defaultVerifier: new JwtVerifier(config.authProviders, signingKey.verificationKeys(), config.jwksPolicy),
      localKeys: signingKey.verificationKeys(),
      jwksPolicy: config.jwksPolicy,
      ttlMs: config.environmentCacheTtlMs,
    }),
    dashboard: new JwtVerifier(config.dashboardAuth, undefined, config.jwksPolicy),
    users: new FederatedClient("users", options.users, "gateway"),
    identity,
    agents: new FederatedClient("agents", options.agents, "gateway"),
    rateLimits: options.rateLimits,
  });
}
