import { hkdfSync, randomBytes } from "node:crypto";

/** Each sandbox provider's own HKDF labels: its secret is never another's. */
const LABELS = {
  kyc: { salt: "platform/kyc", info: "kyc-sandbox-webhook/v1" },
  banking: { salt: "platform/banking", info: "banking-sandbox-webhook/v1" },
} as const;

// One process without INTERNAL_SECRET: the signers (the users and finance subgraphs) and the
// receivers (REST adapter) share this module, so a per-process random secret is enough.
const PROCESS_MATERIAL = randomBytes(32);

/**
 * The secret a sandbox provider signs its webhooks with, and the only one its receiver accepts
 * for them (in sandbox mode only). It is never the real provider's secret (KYC_WEBHOOK_SECRET,
 * BANKING_WEBHOOK_SECRET): a real provider's secret must not sign events our own code made up.
 * Derived with HKDF-SHA256 (the provider's own labels) from INTERNAL_SECRET, which every
 * split-mode service shares, so signer and receiver agree; random per process when
 * INTERNAL_SECRET is unset (one process).
 */
export function sandboxWebhookSecret(internalSecret: string | undefined, provider: keyof typeof LABELS): string {
  const material = internalSecret ? Buffer.from(internalSecret, "utf8") : PROCESS_MATERIAL;
  const { salt, info } = LABELS[provider];
  return Buffer.from(hkdfSync("sha256", material, salt, info, 32)).toString("hex");
}
