import type { Config } from "../../lib/config.ts";
import type { Logger } from "../../lib/logger.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";
import type { KycProvider } from "./kyc/kyc-provider.ts";
import { SandboxKycProvider } from "./kyc/sandbox-kyc-provider.ts";
import { SumsubKycProvider } from "./kyc/sumsub-kyc-provider.ts";
import { SandboxSmsSender } from "./phone/sandbox-sms-sender.ts";
import type { SmsSender } from "./phone/sms-sender.ts";
import { TwilioSmsSender } from "./phone/twilio-sms-sender.ts";

/**
 * The KYC provider KYC_PROVIDER names; undefined when none is configured (the routes that need
 * one answer 503). The config only allows the sandbox in sandbox mode; it signs its decisions with
 * its own secret, never KYC_WEBHOOK_SECRET.
 */
export function createKycProvider(config: Pick<Config, "kycProvider" | "sandboxWebhookBaseUrl" | "internalSecret">): KycProvider | undefined {
  const chosen = config.kycProvider;
  if (chosen === undefined) return undefined;
  if (chosen.name === "sumsub") return new SumsubKycProvider(chosen);
  return new SandboxKycProvider({
    url: `${config.sandboxWebhookBaseUrl}/v0/webhooks/kyc/kyc-provider/events`,
    secret: sandboxWebhookSecret(config.internalSecret, "kyc"),
  });
}

/** The SMS sender SMS_PROVIDER names; undefined when none is configured (sending a code answers 503). */
export function createSmsSender(config: Pick<Config, "smsProvider">, logger: Logger): SmsSender | undefined {
  const chosen = config.smsProvider;
  if (chosen === undefined) return undefined;
  if (chosen.name === "twilio") return new TwilioSmsSender(chosen, logger);
  return new SandboxSmsSender(logger);
}
