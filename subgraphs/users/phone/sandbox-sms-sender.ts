import type { Logger } from "../../../lib/logger.ts";
import type { SmsSender } from "./sms-sender.ts";

/** Logs the message (so a developer can read the code) instead of sending it. */
export class SandboxSmsSender implements SmsSender {
  readonly name = "sandbox";
  /** the last message per number, for tests and local development */
  readonly outbox = new Map<string, string>();

  constructor(private readonly logger: Logger) {}

  async send(input: { to: string; body: string }): Promise<void> {
    this.outbox.set(input.to, input.body);
    this.logger.info({ sms_to: input.to, sms_body: input.body }, "sandbox SMS");
  }
}
