import http from "node:http";
import https from "node:https";
import type { JSONWebKeySet } from "jose";
import { guardedLookup, systemResolve, type Resolve } from "../net/guarded-lookup.ts";
import { publicHttpsUrlProblem } from "../net/public-url.ts";

/**
 * Where a `jwks_uri` may point. Organisation admins choose it (an environment's `auth_providers`),
 * so it must not reach the platform's own network: https to public addresses only.
 * `allowLoopbackHttp` (JWKS_ALLOW_LOOPBACK_HTTP, refused in production) also admits http and https
 * on loopback, for tests and local development with an issuer on this machine.
 */
export interface JwksUriPolicy {
  allowLoopbackHttp: boolean;
}

export const STRICT_JWKS_POLICY: JwksUriPolicy = Object.freeze({ allowLoopbackHttp: false });

export type { Resolve } from "../net/guarded-lookup.ts";

export interface JwksFetchOptions {
  /** the whole fetch: resolution, connection, headers and body */
  timeoutMs: number;
  maxBytes: number;
  resolve: Resolve;
}

export const JWKS_FETCH_DEFAULTS: JwksFetchOptions = Object.freeze({ timeoutMs: 5_000, maxBytes: 64 * 1024, resolve: systemResolve });

/** Why a JWKS could not be fetched; for the log only: clients see one generic verification error. */
export class JwksFetchError extends Error {
  override readonly name = "JwksFetchError";
}

/**
 * What is wrong with a `jwks_uri` on its face, or undefined (lib/net/public-url.ts). Names are
 * only resolved at fetch time, where every resolved address is checked again.
 */
export function jwksUriProblem(uri: string, policy: JwksUriPolicy): string | undefined {
  return publicHttpsUrlProblem(uri, { allowLoopbackHttp: policy.allowLoopbackHttp, switchName: "JWKS_ALLOW_LOOPBACK_HTTP" });
}

/**
 * Fetches a JWKS from `uri` under `policy`: https (or loopback when allowed), every resolved
 * address checked and connected to as checked, a 200 answer only (redirects are not followed),
 * at most `maxBytes` (64 KiB) within `timeoutMs` (5 s), and a body that is `{keys: [...]}`.
 * Every failure is a JwksFetchError.
 */
export function fetchJwks(uri: string, policy: JwksUriPolicy, options: Partial<JwksFetchOptions> = {}): Promise<JSONWebKeySet> {
  const limits = { ...JWKS_FETCH_DEFAULTS, ...options };
  const problem = jwksUriProblem(uri, policy);
  if (problem) return Promise.reject(new JwksFetchError(`jwks_uri ${problem}`));
  const url = new URL(uri);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<JSONWebKeySet>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, value?: JSONWebKeySet) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(error instanceof JwksFetchError ? error : new JwksFetchError(`fetching the JWKS failed: ${error.message}`, { cause: error }));
      } else resolve(value!);
    };
    const request = client.request(url, {
      method: "GET",
      headers: { accept: "application/json" },
      // a fresh connection per fetch, made through the guarded lookup (no pooled socket to reuse)
      agent: false,
      lookup: guardedLookup(url.protocol, policy.allowLoopbackHttp, limits.resolve, (message) => new JwksFetchError(message)) as never,
      maxHeaderSize: 16 * 1024,
    });
    const timer = setTimeout(() => finish(new JwksFetchError(`fetching the JWKS took longer than ${limits.timeoutMs} ms`)), limits.timeoutMs);
    request.on("error", (error) => finish(error));
    request.on("response", (response) => {
      if (response.statusCode !== 200) return finish(new JwksFetchError(`the JWKS answered ${response.statusCode} (redirects are not followed)`));
      if (Number(response.headers["content-length"] ?? 0) > limits.maxBytes) return finish(new JwksFetchError(`the JWKS is larger than ${limits.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) return finish(new JwksFetchError(`the JWKS is larger than ${limits.maxBytes} bytes`));
        chunks.push(chunk);
      });
      response.on("error", (error) => finish(error));
      response.on("aborted", () => finish(new JwksFetchError("the JWKS answer was cut off")));
      response.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return finish(new JwksFetchError("the JWKS is not JSON"));
        }
        const keys = (body as { keys?: unknown } | null)?.keys;
        if (!Array.isArray(keys) || !keys.every((k) => typeof k === "object" && k !== null && !Array.isArray(k)))
          return finish(new JwksFetchError("the JWKS has no keys array"));
        finish(null, body as JSONWebKeySet);
      });
    });
    request.end();
  });
}
