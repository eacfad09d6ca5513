import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";

export const SANDBOX_WARNING = "SANDBOX mode: sandbox providers and test helpers are enabled; never use in production";

/** One warn line at start-up of every process that serves requests, so sandbox mode is never silent. */
export function announceSandbox(config: Pick<Config, "sandbox">, logger: Logger): void {
  if (config.sandbox) logger.warn({ sandbox: true }, SANDBOX_WARNING);
}
