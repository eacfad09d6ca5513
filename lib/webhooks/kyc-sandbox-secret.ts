import { hkdfSync, randomBytes } from "node:crypto";

const SALT = "platform/kyc";
const INFO = "kyc-sandbox-webhook/v1";

// One process without INTERNAL_SECRET: the signer (users subgraph) and the receiver (REST
// adapter) share this module, so a per-process random secret is enough.
const PROCESS_MATERIAL = randomBytes(32);

/**
 * The secret the sandbox KYC provider signs its decision webhooks with, and the only one with
 * which the receiver accepts them (in sandbox mode only). It is never KYC_WEBHOOK_SECRET: a real
 * provider's secret must not sign events our own code made up. Derived with HKDF-SHA256 (its own
 * label) from INTERNAL_SECRET, which every split-mode service shares, so the users service and
 * the adapter agree; random per process when INTERNAL_SECRET is unset (one process).
 */
export function kycSandboxWebhookSecret(internalSecret: string | undefined): string {
  const material = internalSecret ? Buffer.from(internalSecret, "utf8") : PROCESS_MATERIAL;
  return Buffer.from(hkdfSync("sha256", material, SALT, INFO, 32)).toString("hex");
}
