// TRUST_PROXY: which proxies in front of the public listeners may say who the client is
// (X-Forwarded-For), so that `request.ip`, and the per-address rate limit, is the real client
// behind a load balancer and not the balancer itself.
//
//   unset, false   trust nobody: the client is the TCP peer (the default)
//   true           trust every hop: only when the listeners are reachable through the proxies alone
//   <n>            trust the n hops nearest to us (the peer and n-1 forwarded addresses): same caveat
//   <list>         comma-separated addresses and CIDRs of the proxies (10.0.0.0/8, 192.0.2.7, ::1),
//                  or the names loopback, linklocal, uniquelocal: the safe choice
import { isIP } from "node:net";
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";

export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = ["loopback", "linklocal", "uniquelocal"];

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const version = isIP(address ?? "");
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

export function parseTrustProxy(env: Env, name = "TRUST_PROXY"): TrustProxy {
  const raw = envText(env, name);
  if (raw === undefined || raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 32) throw new ConfigError(name, "a hop count must be between 1 and 32 (false trusts nobody)");
    return hops;
  }
  const entries = raw.split(",").map((s) => s.trim());
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0) throw new ConfigError(name, `expected true, false, a hop count, or addresses/CIDRs separated by commas (not ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return entries;
}

/**
 * Fastify's `trustProxy` for a TrustProxy. A hop count becomes a function: Fastify itself now
 * treats a number as "trust nobody", while TRUST_PROXY=<n> means the n nearest hops.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return trust;
}
