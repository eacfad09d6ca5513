import { keccak256, stringToHex, type Hex } from "viem";
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";

/**
 * PINT_DOMAIN_SALT: the `salt` of the PINT mandates' EIP-712 domain, naming this deployment so
 * that a mandate signed for one deployment is useless at another. 0x + 64 hex digits; by default
 * keccak256 of {sis_url} (PUBLIC_IDENTITY_URL) as UTF-8, which differs between deployments that
 * are reached at different addresses. Changing it invalidates every mandate not yet exchanged.
 */
export function loadPintDomainSalt(env: Env, publicIdentityUrl: string): Hex {
  const value = envText(env, "PINT_DOMAIN_SALT");
  if (value === undefined) return keccak256(stringToHex(publicIdentityUrl));
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new ConfigError("PINT_DOMAIN_SALT", "expected 0x followed by 64 hex digits (32 bytes)");
  return value.toLowerCase() as Hex;
}
