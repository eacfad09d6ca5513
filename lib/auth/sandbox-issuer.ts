import { getAddress, isAddress } from "viem";
import type { AuthProviderConfig } from "./auth-provider.ts";
import type { SigningKey } from "./signing-key.ts";

/** The provider names a sandbox token may stand for (AUTH_PROVIDER_NAMES less siwe, which has its own sign-in). */
export const SANDBOX_PROVIDERS = ["provider_a", "provider_b"] as const;
export type SandboxProvider = (typeof SANDBOX_PROVIDERS)[number];

/** Every sandbox token carries this audience, so no other token the signing key makes (SIWE sessions, PINT JWTs) passes for one. */
export const SANDBOX_AUDIENCE = "platform-sandbox";

export const DEFAULT_SANDBOX_TOKEN_SECONDS = 24 * 3600;

/** Its own issuer per provider name: users are keyed by issuer and subject, so a sandbox `alice` is never a real provider's `alice`. */
export function sandboxIssuer(publicBaseUrl: string, provider: SandboxProvider): string {
  return `${publicBaseUrl}/sandbox/issuers/${provider}`;
}

/**
 * SANDBOX_ISSUER: the built-in issuers, verified with the platform signing key (an entry without
 * keys, like a keyless `siwe` entry). They sit beside AUTH_PROVIDERS in the default environment.
 */
export function sandboxAuthProviders(publicBaseUrl: string): AuthProviderConfig[] {
  return SANDBOX_PROVIDERS.map((name) => ({ name, issuer: sandboxIssuer(publicBaseUrl, name), audience: SANDBOX_AUDIENCE }));
}

export interface SandboxTokenRequest {
  sub: string;
  provider?: SandboxProvider;
  /** an address the token vouches the subject controls (`linked_accounts`), so registering it needs no signature */
  wallet?: string;
  expiresInSeconds?: number;
}

/** A JWT of the sandbox issuer (`npm run token`), signed with the key the platform verifies it with. */
export function signSandboxToken(signingKey: SigningKey, publicBaseUrl: string, request: SandboxTokenRequest): Promise<string> {
  if (!request.sub) throw new Error("sub must not be empty");
  if (request.wallet !== undefined && !isAddress(request.wallet, { strict: false })) throw new Error(`${request.wallet} is not an EVM address`);
  return signingKey.sign(request.wallet === undefined ? {} : { linked_accounts: [{ type: "wallet", address: getAddress(request.wallet) }] }, {
    issuer: sandboxIssuer(publicBaseUrl, request.provider ?? "provider_a"),
    subject: request.sub,
    audience: SANDBOX_AUDIENCE,
    expiresInSeconds: request.expiresInSeconds ?? DEFAULT_SANDBOX_TOKEN_SECONDS,
  });
}
