// The external providers of the users service, chosen by configuration.
//
//   KYC_PROVIDER  sandbox | sumsub. Unset: sandbox in sandbox mode, none outside it (the KYC
//                 routes that need a provider answer 503 KYC-503-001).
//     sumsub:     SUMSUB_APP_TOKEN, SUMSUB_SECRET_KEY (required), SUMSUB_LEVEL_NAME
//                 (basic-kyc-level), SUMSUB_BASE_URL (https://api.sumsub.com)
//   SMS_PROVIDER  sandbox | twilio. Unset: sandbox in sandbox mode, none outside it (sending a
//                 code answers 503 PHN-503-001).
//     twilio:     TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM (required), TWILIO_BASE_URL
//                 (https://api.twilio.com)
//
// The sandbox providers exist only in sandbox mode: choosing one with SANDBOX off is a
// ConfigError, so a production deployment can never fake a KYC decision or log a code.
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";

export interface SumsubSettings {
  appToken: string;
  secretKey: string;
  levelName: string;
  baseUrl: string;
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** the sending number (E.164) or alphanumeric sender id */
  from: string;
  baseUrl: string;
}

export type KycProviderConfig = { name: "sandbox" } | ({ name: "sumsub" } & SumsubSettings);
export type SmsProviderConfig = { name: "sandbox" } | ({ name: "twilio" } & TwilioSettings);

function required(env: Env, name: string, because: string): string {
  const value = envText(env, name);
  if (value === undefined) throw new ConfigError(name, `is required with ${because}`);
  return value;
}

function baseUrl(env: Env, name: string, fallback: string): string {
  const raw = envText(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

function choice<T extends string>(env: Env, name: string, options: readonly T[], sandbox: boolean): T | "sandbox" | undefined {
  const raw = envText(env, name);
  if (raw === undefined) return sandbox ? "sandbox" : undefined;
  if (raw === "sandbox") {
    if (!sandbox) throw new ConfigError(name, "sandbox needs SANDBOX=true");
    return "sandbox";
  }
  if (!(options as readonly string[]).includes(raw)) throw new ConfigError(name, `expected ${["sandbox", ...options].join(" or ")}, got "${raw}"`);
  return raw as T;
}

export function loadKycProviderConfig(env: Env, sandbox: boolean): KycProviderConfig | undefined {
  const name = choice(env, "KYC_PROVIDER", ["sumsub"] as const, sandbox);
  if (name !== "sumsub") return name && { name };
  return {
    name,
    appToken: required(env, "SUMSUB_APP_TOKEN", "KYC_PROVIDER=sumsub"),
    secretKey: required(env, "SUMSUB_SECRET_KEY", "KYC_PROVIDER=sumsub"),
    levelName: envText(env, "SUMSUB_LEVEL_NAME") ?? "basic-kyc-level",
    baseUrl: baseUrl(env, "SUMSUB_BASE_URL", "https://api.sumsub.com"),
  };
}

/** CARD_ISSUER: only the sandbox issuer exists so far; outside sandbox mode none, and cards answer 503. */
export function loadCardIssuerName(env: Env, sandbox: boolean): "sandbox" | undefined {
  return choice(env, "CARD_ISSUER", [] as const, sandbox);
}

export function loadSmsProviderConfig(env: Env, sandbox: boolean): SmsProviderConfig | undefined {
  const name = choice(env, "SMS_PROVIDER", ["twilio"] as const, sandbox);
  if (name !== "twilio") return name && { name };
  const accountSid = required(env, "TWILIO_ACCOUNT_SID", "SMS_PROVIDER=twilio");
  // it becomes part of the request path
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new ConfigError("TWILIO_ACCOUNT_SID", "expected AC followed by 32 hex digits");
  return {
    name,
    accountSid,
    authToken: required(env, "TWILIO_AUTH_TOKEN", "SMS_PROVIDER=twilio"),
    from: required(env, "TWILIO_FROM", "SMS_PROVIDER=twilio"),
    baseUrl: baseUrl(env, "TWILIO_BASE_URL", "https://api.twilio.com"),
  };
}
