import type { TwilioSettings } from "../../../lib/provider-config.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { SmsSender } from "./sms-sender.ts";

const TIMEOUT_MS = 10_000;

/** `+44*******123`: enough to tell numbers apart in logs, not enough to dial. */
export function maskPhoneNumber(number: string): string {
  if (number.length <= 6) return "*".repeat(number.length);
  return `${number.slice(0, 3)}${"*".repeat(number.length - 6)}${number.slice(-3)}`;
}

/**
 * Sends SMS through Twilio's Messages API (form POST with Basic auth). The message body carries
 * a one-time code, so it is never logged, nor is the full number; a failure names Twilio's status
 * and error code only.
 */
export class TwilioSmsSender implements SmsSender {
  readonly name = "twilio";

  constructor(
    private readonly settings: TwilioSettings,
    private readonly logger: Logger,
  ) {}

  async send(input: { to: string; body: string }): Promise<void> {
    const { accountSid, authToken, from, baseUrl } = this.settings;
    const response = await fetch(`${baseUrl}/2010-04-01/Accounts/${accountSid}/Messages.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ To: input.to, From: from, Body: input.body }).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as { sid?: unknown; code?: unknown };
    if (response.status !== 200 && response.status !== 201) {
      throw new Error(`Twilio answered ${response.status}${answer.code !== undefined ? ` (error ${String(answer.code)})` : ""}`);
    }
    this.logger.info({ sms_to: maskPhoneNumber(input.to), sms_sid: typeof answer.sid === "string" ? answer.sid : undefined }, "SMS sent");
  }
}
