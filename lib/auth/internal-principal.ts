import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { SubgraphName } from "../graphql/subgraph-registry.ts";
import { isCredentialMode, type CredentialMode } from "./credential-mode.ts";
import type { Principal } from "./principal.ts";
import { MemoryReplayStore, type ReplayStore } from "./replay-store.ts";

/** Header carrying a signed principal from one of our services to another (internal listeners only). */
export const PRINCIPAL_HEADER = "x-internal-principal";

/**
 * Who a signed principal is for: a subgraph, or the gateway's internal listener (the adapter's
 * calls in split mode). A principal signed for one is refused by every other.
 */
export type PrincipalAudience = SubgraphName | "gateway";

/**
 * A signed principal is accepted up to 15 s after it was issued (and 5 s before, for clock skew
 * between containers): one hop takes milliseconds, and anything older is a replay.
 */
export const PRINCIPAL_LIFETIME_MS = 15_000;
const CLOCK_SKEW_MS = 5_000;

/** What the signature covers. */
interface Envelope {
  principal: Principal;
  /** the target service */
  aud: PrincipalAudience;
  /** base64url SHA-256 of the exact request body bytes */
  body: string;
  /** issued at, ms since the epoch */
  iat: number;
  /** random, so each request's principal is accepted once */
  jti: string;
  /** the end client's address, as the adapter saw it (split mode: the gateway counts it) */
  client_address?: string;
  /** the end client's User-Agent, for audit trails */
  user_agent?: string;
  /** for the gateway: the route's credential mode, so it makes the principal from the forwarded headers as the in-process client does */
  credentials?: CredentialMode;
}

/** What a verified principal says. */
export interface VerifiedPrincipal {
  principal: Principal;
  client_address?: string;
  user_agent?: string;
  credentials?: CredentialMode;
}

/** SHA-256 of a request body, as signed and as verified. */
export function bodyDigest(body: string | Uint8Array): Buffer {
  return createHash("sha256").update(body).digest();
}

const keys = new Map<string, Buffer>();

/**
 * One HMAC key per audience, derived from INTERNAL_SECRET with HKDF: a MAC made for one service
 * can never verify at another, whatever the payload says.
 */
function audienceKey(secret: string, audience: PrincipalAudience): Buffer {
  const cacheKey = `${audience}\n${secret}`;
  let key = keys.get(cacheKey);
  if (!key) keys.set(cacheKey, (key = Buffer.from(hkdfSync("sha256", secret, "platform/internal-principal", `internal-principal/v1/${audience}`, 32))));
  return key;
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac("sha256", key).update(payload).digest();
}

export interface SignOptions {
  secret: string;
  audience: PrincipalAudience;
  /** the exact request body that goes with the header */
  body: string | Uint8Array;
  clientAddress?: string;
  userAgent?: string;
  credentials?: CredentialMode;
  now?: number;
}

/** `base64url(json).base64url(hmac)`, bound to one audience, one body and a short lifetime. */
export function signPrincipal(principal: Principal, options: SignOptions): string {
  const envelope: Envelope = {
    principal,
    aud: options.audience,
    body: bodyDigest(options.body).toString("base64url"),
    iat: options.now ?? Date.now(),
    jti: randomBytes(16).toString("base64url"),
    ...(options.clientAddress !== undefined && { client_address: options.clientAddress }),
    ...(options.userAgent !== undefined && { user_agent: options.userAgent }),
    ...(options.credentials !== undefined && { credentials: options.credentials }),
  };
  const payload = Buffer.from(JSON.stringify(envelope)).toString("base64url");
  return `${payload}.${mac(audienceKey(options.secret, options.audience), payload).toString("base64url")}`;
}

/**
 * Verifies signed principals at one internal listener: signed for this audience, over this body,
 * fresh, and not seen before (each `jti` is remembered for its lifetime in `replays`: this
 * process's memory by default, PostgreSQL where replicas share the service, replay-store.ts).
 */
export class PrincipalVerifier {
  private readonly key: Buffer;

  constructor(
    secret: string,
    readonly audience: PrincipalAudience,
    private readonly replays: ReplayStore = new MemoryReplayStore(),
  ) {
    this.key = audienceKey(secret, audience);
  }

  /**
   * The principal, or undefined when the header is absent, forged, for another audience, for
   * another body (`digest`: bodyDigest of the bytes received), stale or replayed. Rejects when the
   * replay store cannot tell (its database is down): the caller answers 503, not 401.
   */
  async verify(header: string | undefined, digest: Buffer, now = Date.now()): Promise<VerifiedPrincipal | undefined> {
    if (!header) return undefined;
    const [payload, signature, extra] = header.split(".");
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = mac(this.key, payload);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Envelope;
    } catch {
      return undefined;
    }
    if (envelope.aud !== this.audience || typeof envelope.iat !== "number" || typeof envelope.jti !== "string") return undefined;
    if (now - envelope.iat > PRINCIPAL_LIFETIME_MS || envelope.iat - now > CLOCK_SKEW_MS) return undefined;
    const signed = Buffer.from(String(envelope.body), "base64url");
    if (signed.length !== digest.length || !timingSafeEqual(signed, digest)) return undefined;
    if (!(await this.replays.firstUse(envelope.jti, envelope.iat + PRINCIPAL_LIFETIME_MS, now))) return undefined;
    return {
      principal: envelope.principal,
      ...(typeof envelope.client_address === "string" && { client_address: envelope.client_address }),
      ...(typeof envelope.user_agent === "string" && { user_agent: envelope.user_agent }),
      ...(isCredentialMode(envelope.credentials) && { credentials: envelope.credentials }),
    };
  }
}
