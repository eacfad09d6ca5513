import type { Config } from "../../lib/config.ts";
import type { WebhookReceiver } from "./webhooks.ts";

/** The webhook receivers of the platform host (spec 4.5), built from their secrets in configuration. */
export function platformWebhooks(_config: Pick<Config, "walletClaimWebhookSecrets" | "kycWebhookSecret">): WebhookReceiver[] {
  return [];
}
