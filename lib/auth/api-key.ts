import { generateSecretToken, isWellFormedSecretToken } from "./secret-token.ts";

/** server keys never reach a browser; public keys may (spec 2.6). */
export const KEY_PARTITIONS = ["server", "public"] as const;
export type KeyPartition = (typeof KEY_PARTITIONS)[number];

/** An environment is live (production) or test; its keys' prefix shows which. */
export const ENVIRONMENT_KINDS = ["live", "test"] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

/**
 * API keys of the identity service: `idsvc_<sk|pk>_<live|test>_` + a secret token. The prefix shows
 * the partition (sk: server, never in a browser; pk: public) and the environment kind, so a
 * leaked key is recognisable and a server key in a front-end bundle is obvious in review.
 */
export function apiKeyPrefix(partition: KeyPartition, kind: EnvironmentKind): string {
  return `idsvc_${partition === "server" ? "sk" : "pk"}_${kind}_`;
}

const PREFIXES = KEY_PARTITIONS.flatMap((p) => ENVIRONMENT_KINDS.map((k) => apiKeyPrefix(p, k)));

export function generateApiKey(partition: KeyPartition, kind: EnvironmentKind): string {
  return generateSecretToken(apiKeyPrefix(partition, kind));
}

/** Looks like one of our API keys (any partition or kind) with a valid checksum. */
export function isWellFormedApiKey(token: string): boolean {
  return PREFIXES.some((prefix) => isWellFormedSecretToken(token, prefix));
}

/** An `Authorization: Bearer` value that is meant as an API key rather than a session JWT. */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith("idsvc_");
}
