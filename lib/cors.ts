// CORS_ORIGINS: the web origins whose pages may call the platform and identity listeners from a
// browser. Same-origin pages (each listener's own /docs) need none. Credentials travel in headers
// (x-platform-*, Authorization), never cookies, so no answer allows credentials: a listed origin's
// page can only send a credential it holds itself.
//
//   unset    development: any port of http://localhost, http://127.0.0.1 and http://[::1] (a front
//            end on `npm run dev` beside `npm start`); NODE_ENV=production: none
//   none     no origin
//   <list>   comma-separated origins, `https://app.example.com`, or a host with any port,
//            `http://localhost:*`; `*` is refused: name the origins a fintech API serves
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";

/** Origins (`scheme://host[:port]`, lower case) and hosts with any port (`scheme://host:*`). */
export type CorsOrigins = readonly string[];

export const DEVELOPMENT_CORS_ORIGINS: CorsOrigins = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

const ORIGIN = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(?:\d{1,5}|\*))?$/;

export function parseCorsOrigins(env: Env, name = "CORS_ORIGINS"): CorsOrigins {
  const raw = envText(env, name);
  if (raw === undefined) return envText(env, "NODE_ENV") === "production" ? [] : DEVELOPMENT_CORS_ORIGINS;
  if (raw.toLowerCase() === "none") return [];
  const entries = raw.split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  if (entries.includes("*")) throw new ConfigError(name, "list the origins (https://app.example.com); * would let any web page call the API");
  const bad = entries.filter((entry) => !ORIGIN.test(entry));
  if (bad.length > 0)
    throw new ConfigError(name, `expected none or origins separated by commas, scheme://host[:port] or scheme://host:* without a path (not ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return entries;
}

/** Whether a request's `Origin` is one of `origins`; `null` (a sandboxed frame, a file) never is. */
export function corsOriginAllowed(origins: CorsOrigins, origin: string): boolean {
  const value = origin.toLowerCase();
  return origins.some((allowed) => (allowed.endsWith(":*") ? value === allowed.slice(0, -2) || (value.startsWith(allowed.slice(0, -1)) && /^\d{1,5}$/.test(value.slice(allowed.length - 1))) : value === allowed));
}

/** The request headers besides a listener's credentials that its pages may send: every other header the API reads. */
export const CORS_REQUEST_HEADERS = ["Content-Type", "Idempotency-Key", "X-Timestamp-Format", "traceparent", "tracestate", "X-Request-Id"] as const;

/** The response headers a page may read besides the safelisted ones (Content-Type, Cache-Control…). */
export const CORS_RESPONSE_HEADERS = ["Retry-After", "X-Request-Id", "Allow"] as const;

/** Access-Control-Allow-Headers: the listener's credential headers, then CORS_REQUEST_HEADERS. */
export function corsAllowedHeaders(credentialHeaders: readonly string[]): string {
  return [...credentialHeaders, ...CORS_REQUEST_HEADERS].map((name) => name.toLowerCase()).join(", ");
}

/** Access-Control-Expose-Headers. */
export const CORS_EXPOSED_HEADERS = CORS_RESPONSE_HEADERS.map((name) => name.toLowerCase()).join(", ");

/** Seconds a browser may keep a preflight's answer: Chromium's ceiling. Each answer is still checked against CORS_ORIGINS. */
export const CORS_MAX_AGE_SECONDS = 7200;
