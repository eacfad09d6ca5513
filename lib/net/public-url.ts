import { isIP } from "node:net";
import { addressClass, type AddressClass } from "./address-class.ts";

/**
 * Where the platform may connect on an organisation's say-so (a `jwks_uri`, a webhook endpoint's
 * `url`): https to public addresses only, so it cannot be aimed at the platform's own network.
 * `allowLoopbackHttp` (a development switch, named by `switchName`) also admits http and https on
 * loopback, for a receiver or issuer on this machine.
 */
export interface PublicUrlPolicy {
  allowLoopbackHttp: boolean;
  /** the configuration variable that turns `allowLoopbackHttp` on, named in the refusal */
  switchName: string;
}

/** Whether a connection to an address of this class over this protocol is allowed. */
export function allowedAddress(kind: AddressClass, protocol: string, allowLoopbackHttp: boolean): boolean {
  if (kind === "loopback") return allowLoopbackHttp;
  return kind === "public" && protocol === "https:";
}

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761), whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  return /(^|\.)localhost\.?$/i.test(hostname);
}

/**
 * What is wrong with the URL on its face (scheme, credentials, an address literal or a localhost
 * name that may not be reached), or undefined. Names are only resolved when connecting, where
 * every resolved address must be checked again.
 */
export function publicHttpsUrlProblem(uri: string, policy: PublicUrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "expected an https URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "expected an https URL";
  if (url.username || url.password) return "must not carry credentials";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const kind = isIP(host) ? addressClass(host) : isLocalhostName(host) ? "loopback" : undefined;
  if (url.protocol === "http:") {
    if (!policy.allowLoopbackHttp) return "expected an https URL";
    if (kind !== "loopback") return `http is allowed for loopback addresses only (${policy.switchName})`;
  }
  if (kind !== undefined && !allowedAddress(kind, url.protocol, policy.allowLoopbackHttp)) return `must not point at a non-public address (${kind})`;
  return undefined;
}
