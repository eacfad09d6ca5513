import { parse } from "graphql";
import type { JWTVerifyGetKey } from "jose";
import type { OrgEnvironment } from "../lib/auth/orgid.ts";
import { DEFAULT_ENVIRONMENT_ID, environmentId } from "../lib/auth/orgid.ts";
import { JwtVerifier } from "../lib/auth/jwt-verifier.ts";
import type { JwksUriPolicy } from "../lib/auth/jwks-fetch.ts";
import type { AuthProviderConfig } from "../lib/config.ts";
import { appError } from "../lib/errors/app-error.ts";
import type { FederatedClient } from "../lib/graphql/federated-client.ts";

export interface ResolvedEnvironment {
  environment_id: string;
  /** the identity providers active in this environment */
  verifier: JwtVerifier;
}

/**
 * Where `x-platform-orgid` resolves (spec 5.1.2, 5.1.6): absent (null) is the default
 * environment (AUTH_PROVIDERS); `<org-id>:<env-id>` an identity environment; null when unknown.
 */
export interface EnvironmentResolver {
  resolve(orgEnv: OrgEnvironment | null, traceId?: string): Promise<ResolvedEnvironment | null>;
}

/** How long an environment's providers (or its absence) are kept before the identity subgraph is asked again. */
export const ENVIRONMENT_CACHE_TTL_MS = 30_000;

const ENVIRONMENT_AUTH = parse(`query ($org_id: String!, $env_id: String!) {
  auth: _environment_auth(org_id: $org_id, env_id: $env_id) { environment_id providers }
}`);

export interface IdentityEnvironmentResolverOptions {
  /** the identity subgraph, which owns environments and their `auth_providers` */
  identity: FederatedClient;
  /** the default environment's verifier (AUTH_PROVIDERS), used when x-platform-orgid is absent */
  defaultVerifier: JwtVerifier;
  /** keys for a `siwe` entry without its own: the platform signing key, as for AUTH_PROVIDERS */
  localKeys?: JWTVerifyGetKey;
  /** where the providers' jwks_uri may point (JWKS_ALLOW_LOOPBACK_HTTP); strict by default */
  jwksPolicy?: JwksUriPolicy;
  /** ENVIRONMENT_CACHE_TTL_MS by default */
  ttlMs?: number;
  /** environments kept at most (oldest dropped first) */
  maxEntries?: number;
  now?: () => number;
}

interface CacheEntry {
  expires: number;
  value: Promise<ResolvedEnvironment | null>;
}

/**
 * Environments from the identity subgraph (`_environment_auth`, internal to the gateway): a JWT
 * sent with `x-platform-orgid: <org>:<env>` must come from a provider of that environment, and
 * its users are scoped by `environment_id` = `<org>:<env>`. An unknown, deleted or auth-inactive
 * environment resolves to null (401 USR-401-003).
 *
 * Each environment's answer is cached for `ttlMs` (30 s by default, ENVIRONMENT_CACHE_TTL_MS):
 * a provider change, `auth_is_active: false` or a deletion takes effect at the gateway within
 * that time (API keys, looked up on every request, are revoked immediately). Unknown
 * environments are cached the same way, so a flood of made-up ids costs one lookup each per TTL;
 * a failed lookup is not cached. Concurrent requests share one lookup. A refresh that finds the
 * same providers keeps the same JwtVerifier, so the providers' JWKS stay cached.
 */
export class IdentityEnvironmentResolver implements EnvironmentResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly verifiers = new Map<string, { providers: string; verifier: JwtVerifier }>();
  private readonly defaultEnvironment: ResolvedEnvironment;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: IdentityEnvironmentResolverOptions) {
    this.defaultEnvironment = { environment_id: DEFAULT_ENVIRONMENT_ID, verifier: options.defaultVerifier };
    this.ttlMs = options.ttlMs ?? ENVIRONMENT_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async resolve(orgEnv: OrgEnvironment | null, traceId = ""): Promise<ResolvedEnvironment | null> {
    if (orgEnv === null) return this.defaultEnvironment;
    const key = environmentId(orgEnv);
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.value;
    const entry: CacheEntry = { expires: now + this.ttlMs, value: this.load(orgEnv, key, traceId) };
    this.remember(key, entry, now);
    entry.value.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return entry.value;
  }

  private async load(orgEnv: OrgEnvironment, key: string, traceId: string): Promise<ResolvedEnvironment | null> {
    const { auth } = await this.options.identity.query<{ auth: { environment_id: string; providers: AuthProviderConfig[] } | null }>(
      ENVIRONMENT_AUTH,
      { org_id: orgEnv.org_id, env_id: orgEnv.env_id },
      traceId,
    );
    if (auth === null) {
      this.verifiers.delete(key);
      return null;
    }
    const providers = JSON.stringify(auth.providers);
    let held = this.verifiers.get(key);
    if (held?.providers !== providers) {
      try {
        held = { providers, verifier: new JwtVerifier(auth.providers, this.options.localKeys, this.options.jwksPolicy) };
      } catch (error) {
        throw appError("GEN-503-001", "The environment's identity providers could not be loaded.", { cause: error });
      }
      this.verifiers.set(key, held);
    }
    return { environment_id: auth.environment_id, verifier: held.verifier };
  }

  private remember(key: string, entry: CacheEntry, now: number): void {
    this.cache.delete(key);
    if (this.cache.size >= this.maxEntries) {
      for (const [k, e] of this.cache) if (e.expires <= now) this.forget(k);
      while (this.cache.size >= this.maxEntries) this.forget(this.cache.keys().next().value!);
    }
    this.cache.set(key, entry);
  }

  private forget(key: string): void {
    this.cache.delete(key);
    this.verifiers.delete(key);
  }
}
