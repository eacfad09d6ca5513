import { createLocalJWKSet, errors as joseErrors, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters, type JWTVerifyGetKey } from "jose";
import { fetchJwks, type JwksUriPolicy } from "./jwks-fetch.ts";

export interface RemoteKeySetOptions {
  /** keys older than this are fetched again before use (kept if that fetch fails) */
  maxAgeMs: number;
  /** fetches allowed back to back (the first load, a rotation, a retry) */
  burst: number;
  /** one more fetch is allowed per this many ms, up to `burst` */
  refillMs: number;
  now: () => number;
  fetch: (uri: string, policy: JwksUriPolicy) => Promise<JSONWebKeySet>;
}

export const REMOTE_KEY_SET_DEFAULTS: RemoteKeySetOptions = Object.freeze({
  maxAgeMs: 10 * 60_000,
  burst: 3,
  refillMs: 5_000,
  now: () => Date.now(),
  fetch: fetchJwks,
});

/**
 * One provider's JWKS, fetched through `fetchJwks` (address and size checks) and cached. A token
 * whose `kid` is not in the cached set makes it fetch again at once, so a provider's key rotation
 * verifies on its first token; fetches per provider are bounded by a token bucket (`burst` at
 * once, then one per `refillMs`), so made-up `kid`s cannot turn the gateway into a request
 * generator against the provider. Concurrent callers share one fetch.
 */
export class RemoteKeySet {
  private keys: ReturnType<typeof createLocalJWKSet> | undefined;
  private fetchedAt = 0;
  private inflight: Promise<void> | undefined;
  private tokens: number;
  private refilledAt: number;
  private readonly options: RemoteKeySetOptions;

  constructor(
    readonly uri: string,
    private readonly policy: JwksUriPolicy,
    options: Partial<RemoteKeySetOptions> = {},
  ) {
    this.options = { ...REMOTE_KEY_SET_DEFAULTS, ...options };
    this.tokens = this.options.burst;
    this.refilledAt = this.options.now();
  }

  readonly getKey: JWTVerifyGetKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    if (!this.keys) await this.refresh();
    // an outage of the provider keeps its last keys rather than refusing every token
    else if (this.options.now() - this.fetchedAt >= this.options.maxAgeMs) await this.refresh().catch(() => false);
    if (!this.keys) throw new joseErrors.JWKSNoMatchingKey();
    try {
      return await this.keys(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      // an unknown kid: the provider may have rotated since the last fetch
      if (!(await this.refresh())) throw error;
      return this.keys(header, token);
    }
  };

  /**
   * Fetches the set again unless the bucket is empty (then the cached keys stay, and false says
   * nothing new was fetched). A failed fetch throws; the cached keys stay.
   */
  private async refresh(): Promise<boolean> {
    if (this.inflight) {
      await this.inflight;
      return true;
    }
    if (!this.take()) return false;
    this.inflight = this.options
      .fetch(this.uri, this.policy)
      .then((jwks) => {
        this.keys = createLocalJWKSet(jwks);
        this.fetchedAt = this.options.now();
      })
      .finally(() => {
        this.inflight = undefined;
      });
    await this.inflight;
    return true;
  }

  private take(): boolean {
    const now = this.options.now();
    const earned = Math.floor((now - this.refilledAt) / this.options.refillMs);
    if (earned > 0) {
      this.tokens = Math.min(this.options.burst, this.tokens + earned);
      this.refilledAt = this.tokens === this.options.burst ? now : this.refilledAt + earned * this.options.refillMs;
    }
    if (this.tokens === 0) return false;
    this.tokens--;
    return true;
  }
}
