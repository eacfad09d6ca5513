import type { Config } from "../../lib/config.ts";
import { kycSandboxWebhookSecret } from "../../lib/webhooks/kyc-sandbox-secret.ts";
import { kycProviderWebhook } from "./kyc-provider-events.ts";
import { bankingProviderWebhook } from "./banking-provider-events.ts";
import { bankingSandboxWebhookSecret } from "../../lib/webhooks/banking-signature.ts";
import { walletClaimedWebhook } from "./wallet-claimed.ts";
import type { WebhookReceiver } from "./webhooks.ts";

/** The webhook receivers of the platform host (spec 4.5), built from their secrets in configuration. */
export function platformWebhooks(
  config: Pick<Config, "walletClaimWebhookSecrets" | "kycWebhookSecret" | "kycWebhookToleranceSeconds" | "bankingWebhookSecrets" | "bankingWebhookToleranceSeconds" | "sandbox" | "internalSecret">,
): WebhookReceiver[] {
  const kyc = kycProviderWebhook({
    secret: config.kycWebhookSecret,
    sandbox: config.sandbox,
    sandboxSecret: kycSandboxWebhookSecret(config.internalSecret),
    toleranceSeconds: config.kycWebhookToleranceSeconds,
  });
  const banking = bankingProviderWebhook({
    secrets: config.bankingWebhookSecrets,
    sandbox: config.sandbox,
    sandboxSecret: bankingSandboxWebhookSecret(config.internalSecret),
    toleranceSeconds: config.bankingWebhookToleranceSeconds,
  });
  return [walletClaimedWebhook(config.walletClaimWebhookSecrets), kyc, banking];
}
