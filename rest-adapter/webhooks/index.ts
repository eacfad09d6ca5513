import type { Config } from "../../lib/config.ts";
import { kycProviderWebhook } from "./kyc-provider-events.ts";
import { walletClaimedWebhook } from "./wallet-claimed.ts";
import type { WebhookReceiver } from "./webhooks.ts";

/** The webhook receivers of the platform host (spec 4.5), built from their secrets in configuration. */
export function platformWebhooks(config: Pick<Config, "walletClaimWebhookSecrets" | "kycWebhookSecret">): WebhookReceiver[] {
  return [walletClaimedWebhook(config.walletClaimWebhookSecrets), kycProviderWebhook(config.kycWebhookSecret)];
}
