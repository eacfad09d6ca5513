import { readFileSync } from "node:fs";
import { ConfigError } from "./config-error.ts";
import { envText, isRecord, type Env } from "./parse.ts";
import { loadRateLimitConfig, type RateLimitConfig } from "./rate-limit/config.ts";

export { ConfigError };

export const AUTH_PROVIDER_NAMES = ["provider_a", "provider_b", "siwe"] as const;
export type AuthProviderName = (typeof AUTH_PROVIDER_NAMES)[number];

export interface AuthProviderConfig {
  name: string;
  issuer: string;
  jwks_uri?: string;
  /** PEM (SPKI) or a JWK object */
  public_key?: string | Record<string, unknown>;
  audience?: string | string[];
  /** only identity tokens (with linked-account claims) verify; access tokens fail */
  mode?: "app_id_only";
}

export interface IdentityBootstrap {
  organisation: { id: string; name: string; contact_email?: string };
  environment: { id: string; name: string };
  members: { sub: string; email?: string; name?: string }[];
}

export type SafeDeployerKind = "sandbox" | "chain";

export interface Config {
  /** RATE_LIMITS and RATE_LIMIT_STORE (lib/rate-limit/config.ts) */
  rateLimits: RateLimitConfig;
  databaseUrl?: string;
  dataDir: string;
  host: string;
  port: number;
  identityPort: number;
  rpcPort: number;
  graphqlPort: number;
  authProviders: AuthProviderConfig[];
  dashboardAuth: AuthProviderConfig[];
  identityBootstrap?: IdentityBootstrap;
  publicBaseUrl: string;
  publicIdentityUrl: string;
  publicRpcUrl: string;
  docsUrl: string;
  walletClaimWebhookSecrets: string[];
  kycWebhookSecret?: string;
  bankingWebhookSecret?: string;
  chainRpcUrls: Record<number, string>;
  /** private JWK; undefined means generate once and keep in DATA_DIR */
  signingKey?: Record<string, unknown>;
  logLevel: string;
  /** HMAC secret for the principal header between services; generated per process when unset */
  internalSecret?: string;
  /** split mode: where the gateway finds each subgraph, and where the adapter finds the gateway */
  subgraphUrls: Partial<Record<"users" | "finance" | "identity" | "agents", string>>;
  gatewayUrl?: string;
  safeDeployer: SafeDeployerKind;
  safeDeployDelayMs: number;
  /** owner addresses (lower case) whose sandbox deployment fails, or "*" for all; for tests and demos */
  safeSandboxFailures: string[];
  safeDeployerKey?: `0x${string}`;
  /** the CLI's deployment-wide default for `debug` (GET /v0/cli/config without a token) */
  cliDebugDefault: boolean;
  /** how long the gateway keeps an identity environment's providers (x-platform-orgid) before asking again */
  environmentCacheTtlMs: number;
}


const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function port(env: Env, name: string, fallback: number): number {
  const raw = envText(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(name, `expected a TCP port (0-65535), got "${raw}"`);
  return value;
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = envText(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(name, `expected a non-negative integer, got "${raw}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = envText(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = envText(env, name) ?? fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/** JSON inline, or `@path/to/file.json` */
function json(env: Env, name: string): unknown {
  const raw = envText(env, name);
  if (raw === undefined) return undefined;
  let source = raw;
  if (raw.startsWith("@")) {
    try {
      source = readFileSync(raw.slice(1), "utf8");
    } catch {
      throw new ConfigError(name, `cannot read file ${raw.slice(1)}`);
    }
  }
  try {
    return JSON.parse(source);
  } catch {
    throw new ConfigError(name, "is not valid JSON");
  }
}

function providers(env: Env, name: string, names: readonly string[] | undefined): AuthProviderConfig[] {
  const value = json(env, name);
  if (value === undefined) return [];
  return parseAuthProviders(value, name, names);
}

/**
 * AUTH_PROVIDERS-shaped entries (`[{name, issuer, jwks_uri | public_key, audience?, mode?}]`),
 * validated and normalised (unknown fields dropped). `name` labels the value in errors: a
 * ConfigError names the failing entry and field (`<name>[0].issuer`). `names` restricts the
 * provider names (AUTH_PROVIDER_NAMES; undefined: any string); a `siwe` entry may leave out its keys. Also used for an
 * identity environment's `auth_providers` (subgraphs/identity/environments).
 */
export function parseAuthProviders(value: unknown, name: string, names: readonly string[] | undefined): AuthProviderConfig[] {
  if (!Array.isArray(value)) throw new ConfigError(name, "expected a JSON array of providers");
  return value.map((entry, index): AuthProviderConfig => {
    const at = `${name}[${index}]`;
    if (!isRecord(entry)) throw new ConfigError(at, "expected an object");
    const { name: providerName, issuer, jwks_uri, public_key, audience, mode } = entry;
    if (typeof providerName !== "string" || (names && !names.includes(providerName)))
      throw new ConfigError(`${at}.name`, names ? `expected one of ${names.join(", ")}` : "expected a string");
    if (typeof issuer !== "string" || issuer === "") throw new ConfigError(`${at}.issuer`, "expected a non-empty string");
    if (jwks_uri !== undefined) {
      if (typeof jwks_uri !== "string" || !/^https?:\/\//.test(jwks_uri)) throw new ConfigError(`${at}.jwks_uri`, "expected an http(s) URL");
    }
    if (public_key !== undefined && typeof public_key !== "string" && !isRecord(public_key))
      throw new ConfigError(`${at}.public_key`, "expected a PEM string or a JWK object");
    if (jwks_uri === undefined && public_key === undefined && providerName !== "siwe")
      throw new ConfigError(at, "needs jwks_uri or public_key");
    if (audience !== undefined && typeof audience !== "string" && !(Array.isArray(audience) && audience.every((a) => typeof a === "string")))
      throw new ConfigError(`${at}.audience`, "expected a string or an array of strings");
    if (mode !== undefined && mode !== "app_id_only") throw new ConfigError(`${at}.mode`, 'expected "app_id_only" or nothing');
    return {
      name: providerName,
      issuer,
      ...(jwks_uri !== undefined && { jwks_uri: jwks_uri as string }),
      ...(public_key !== undefined && { public_key: public_key as string | Record<string, unknown> }),
      ...(audience !== undefined && { audience: audience as string | string[] }),
      ...(mode !== undefined && { mode: "app_id_only" as const }),
    };
  });
}

function bootstrap(env: Env): IdentityBootstrap | undefined {
  const name = "IDENTITY_BOOTSTRAP";
  const value = json(env, name);
  if (value === undefined) return undefined;
  if (!isRecord(value) || !isRecord(value.organisation) || !isRecord(value.environment) || !Array.isArray(value.members))
    throw new ConfigError(name, "expected {organisation: {id, name}, environment: {id, name}, members: [{sub}]}");
  const { organisation, environment, members } = value;
  for (const [part, record] of [["organisation", organisation], ["environment", environment]] as const) {
    if (typeof record.id !== "string" || record.id === "" || typeof record.name !== "string")
      throw new ConfigError(`${name}.${part}`, "needs string id and name");
  }
  if (!members.every((m) => isRecord(m) && typeof m.sub === "string" && m.sub !== ""))
    throw new ConfigError(`${name}.members`, "every member needs a non-empty sub");
  return value as unknown as IdentityBootstrap;
}

function chainRpcUrls(env: Env): Record<number, string> {
  const name = "CHAIN_RPC_URLS";
  const value = json(env, name);
  if (value === undefined) return {};
  if (!isRecord(value)) throw new ConfigError(name, "expected a JSON object of chain id to RPC URL");
  const result: Record<number, string> = {};
  for (const [chain, rpc] of Object.entries(value)) {
    const id = Number(chain);
    if (!Number.isInteger(id) || id <= 0) throw new ConfigError(name, `"${chain}" is not a chain id`);
    if (typeof rpc !== "string" || !/^(https?|wss?):\/\//.test(rpc)) throw new ConfigError(`${name}.${chain}`, "expected an http(s) or ws(s) URL");
    result[id] = rpc;
  }
  return result;
}

function webhookSecrets(env: Env): string[] {
  const name = "WALLET_CLAIM_WEBHOOK_SECRETS";
  const raw = envText(env, name);
  if (raw === undefined) return [];
  const secrets = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const secret of secrets) {
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw new ConfigError(name, "every secret must be whsec_ followed by base64");
  }
  return secrets;
}

function signingKey(env: Env): Record<string, unknown> | undefined {
  const value = json(env, "SIGNING_KEY");
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.kty !== "string" || typeof value.d !== "string")
    throw new ConfigError("SIGNING_KEY", "expected a private JWK (with kty and d)");
  return value;
}

function subgraphUrls(env: Env): Config["subgraphUrls"] {
  const result: Config["subgraphUrls"] = {};
  for (const name of ["users", "finance", "identity", "agents"] as const) {
    const variable = `${name.toUpperCase()}_SUBGRAPH_URL`;
    if (envText(env, variable) !== undefined) result[name] = url(env, variable, "");
  }
  return result;
}

export function loadConfig(env: Env = process.env): Config {
  const port_ = port(env, "PORT", 8080);
  const identityPort = port(env, "IDENTITY_PORT", 8081);
  const rpcPort = port(env, "RPC_PORT", 8082);
  const graphqlPort = port(env, "GRAPHQL_PORT", 4000);
  const publicBaseUrl = url(env, "PUBLIC_BASE_URL", `http://localhost:${port_}`);

  const logLevel = envText(env, "LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError("LOG_LEVEL", `expected one of ${LOG_LEVELS.join(", ")}`);

  const databaseUrl = envText(env, "DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError("DATABASE_URL", "expected a postgres:// or postgresql:// URL");

  const safeDeployer = envText(env, "SAFE_DEPLOYER") ?? "sandbox";
  if (safeDeployer !== "sandbox" && safeDeployer !== "chain") throw new ConfigError("SAFE_DEPLOYER", 'expected "sandbox" or "chain"');
  const safeDeployerKey = envText(env, "SAFE_DEPLOYER_KEY");
  if (safeDeployerKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(safeDeployerKey))
    throw new ConfigError("SAFE_DEPLOYER_KEY", "expected a 32-byte hex private key");
  if (safeDeployer === "chain" && safeDeployerKey === undefined)
    throw new ConfigError("SAFE_DEPLOYER_KEY", "is required when SAFE_DEPLOYER=chain");

  const internalSecret = envText(env, "INTERNAL_SECRET");
  if (internalSecret !== undefined && internalSecret.length < 32)
    throw new ConfigError("INTERNAL_SECRET", "must be at least 32 characters");

  const gatewayUrl = envText(env, "GATEWAY_URL");

  return {
    rateLimits: loadRateLimitConfig(env),
    ...(databaseUrl !== undefined && { databaseUrl }),
    dataDir: envText(env, "DATA_DIR") ?? "./data",
    host: envText(env, "HOST") ?? "127.0.0.1",
    port: port_,
    identityPort,
    rpcPort,
    graphqlPort,
    authProviders: providers(env, "AUTH_PROVIDERS", AUTH_PROVIDER_NAMES),
    dashboardAuth: providers(env, "DASHBOARD_AUTH", undefined),
    identityBootstrap: bootstrap(env),
    publicBaseUrl,
    publicIdentityUrl: url(env, "PUBLIC_IDENTITY_URL", `http://localhost:${identityPort}`),
    publicRpcUrl: url(env, "PUBLIC_RPC_URL", `http://localhost:${rpcPort}`),
    docsUrl: url(env, "DOCS_URL", `${publicBaseUrl}/docs`),
    walletClaimWebhookSecrets: webhookSecrets(env),
    kycWebhookSecret: envText(env, "KYC_WEBHOOK_SECRET"),
    bankingWebhookSecret: envText(env, "BANKING_WEBHOOK_SECRET"),
    chainRpcUrls: chainRpcUrls(env),
    signingKey: signingKey(env),
    logLevel,
    internalSecret,
    subgraphUrls: subgraphUrls(env),
    ...(gatewayUrl !== undefined && { gatewayUrl: url(env, "GATEWAY_URL", gatewayUrl) }),
    safeDeployer,
    safeDeployDelayMs: nonNegativeInt(env, "SAFE_DEPLOY_DELAY_MS", 2000),
    safeSandboxFailures: (envText(env, "SAFE_SANDBOX_FAILURES") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
    ...(safeDeployerKey !== undefined && { safeDeployerKey: safeDeployerKey as `0x${string}` }),
    cliDebugDefault: bool(env, "CLI_DEBUG", false),
    environmentCacheTtlMs: nonNegativeInt(env, "ENVIRONMENT_CACHE_TTL_MS", 30_000),
  };
}
