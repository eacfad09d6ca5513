import type { Config } from "./config.ts";
import { appError } from "./errors/app-error.ts";
import type { Logger } from "./logger.ts";

export const SANDBOX_WARNING = "SANDBOX mode: sandbox providers and test helpers are enabled; never use in production";

export const SANDBOX_ISSUER_WARNING = "SANDBOX_ISSUER: tokens from `npm run token` sign anyone in; never use in production";

/** One warn line at start-up of every process that serves requests, so sandbox mode (and the sandbox sign-in) is never silent. */
export function announceSandbox(config: Pick<Config, "sandbox" | "sandboxIssuer">, logger: Logger): void {
  if (config.sandbox) logger.warn({ sandbox: true }, SANDBOX_WARNING);
  if (config.sandboxIssuer) logger.warn({ sandbox_issuer: true }, SANDBOX_ISSUER_WARNING);
}

/** Sandbox helpers (deposits, payments, the card network simulator) outside sandbox mode: GEN-404-001, as if they did not exist. */
export function requireSandbox(services: { sandbox: boolean }): void {
  if (!services.sandbox) throw appError("GEN-404-001", "Sandbox helpers exist only in sandbox mode (SANDBOX=true).");
}
