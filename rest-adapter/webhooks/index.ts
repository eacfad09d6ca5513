import type { Config } from "../../lib/config.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";
import { kycProviderWebhook } from "./kyc-provider-events.ts";
import { bankingProviderWebhook } from "./banking-provider-events.ts";
import { walletClaimedWebhook } from "./wallet-claimed.ts";
import type { WebhookReceiver } from "./webhooks.ts";

/** The webhook receivers of the platform host (spec 4.5), built from their secrets in configuration. */
export function platformWebhooks(
  config: Pick<Config, "walletClaimWebhookSecrets" | "kycWebhookSecret" | "kycWebhookToleranceSeconds" | "bankingWebhookSecrets" | "bankingWebhookToleranceSeconds" | "sandbox" | "internalSecret">,
): WebhookReceiver[] {
  const kyc = kycProviderWebhook({
    secret: config.kycWebhookSecret,
    sandbox: config.sandbox,
    sandboxSecret: sandboxWebhookSecret(config.internalSecret, "kyc"),
    toleranceSeconds: config.kycWebhookToleranceSeconds,
  });
  const banking = bankingProviderWebhook({
    secrets: config.bankingWebhookSecrets,
    sandbox: config.sandbox,
    sandboxSecret: sandboxWebhookSecret(config.internalSecret, "banking"),
    toleranceSeconds: config.bankingWebhookToleranceSeconds,
  });
  return [walletClaimedWebhook(config.walletClaimWebhookSecrets), kyc, banking];
}
