import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { AUTH_PROVIDER_NAMES, type AuthProviderConfig } from "./auth/auth-provider.ts";
import { sandboxAuthProviders } from "./auth/sandbox-issuer.ts";
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from "./http.ts";
import { ConfigError } from "./config-error.ts";
import { envText, isRecord, type Env } from "./parse.ts";
import { loadPintDomainSalt } from "./pint-domain.ts";
import { loadCardIssuerName, loadKycProviderConfig, loadSmsProviderConfig, type KycProviderConfig, type SmsProviderConfig } from "./provider-config.ts";
import { loadRateLimitConfig, type RateLimitConfig } from "./rate-limit/config.ts";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";
import { parseCorsOrigins, type CorsOrigins } from "./cors.ts";
import { loadEnvironmentLimits, type EnvironmentLimits } from "./environment-limits.ts";
import { loadRegistrationProof, type RegistrationProofPolicy } from "./registration-proof.ts";
import { DEFAULT_KYC_WEBHOOK_TOLERANCE_SECONDS } from "./webhooks/kyc-event-freshness.ts";
import { DEFAULT_BANKING_WEBHOOK_TOLERANCE_SECONDS } from "./webhooks/banking-signature.ts";
import { loadGraphqlLimitConfig, type GraphqlLimitConfig } from "./graphql/limits.ts";
import { loadPriceConfig, type PriceConfig } from "./price-config.ts";
import { loadBalanceConfig, type BalanceConfig } from "./balance-config.ts";
import { loadDatabaseTimeouts, type DatabaseTimeouts } from "./db/database-timeouts.ts";
import { SUBGRAPHS, type SubgraphName } from "./graphql/subgraph-registry.ts";
import { jwksUriProblem, STRICT_JWKS_POLICY, type JwksUriPolicy } from "./auth/jwks-fetch.ts";
import type { PublicUrlPolicy } from "./net/public-url.ts";

export { ConfigError };
export { AUTH_PROVIDER_NAMES, type AuthProviderConfig } from "./auth/auth-provider.ts";


export interface IdentityBootstrap {
  organisation: { id: string; name: string; contact_email?: string };
  environment: { id: string; name: string };
  /** `issuer`: the DASHBOARD_AUTH issuer of the member's session tokens; given, or the only one configured */
  members: { issuer: string; sub: string; email?: string; name?: string }[];
}

export type SafeDeployerKind = "sandbox" | "chain";

export interface Config {
  /**
   * SANDBOX: sandbox providers (KYC, SMS, Safe deployer), the sandbox routes and test helpers
   * exist only when true. Default: true unless NODE_ENV is production.
   */
  sandbox: boolean;
  /**
   * SANDBOX_ISSUER: the built-in issuers of `npm run token` are among the providers
   * (lib/auth/sandbox-issuer.ts). Default: on in sandbox mode unless NODE_ENV is production.
   */
  sandboxIssuer: boolean;
  /** HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS, LOAD_SHED_SAMPLE_INTERVAL_MS, LOAD_SHED_RETRY_AFTER_SECONDS */
  http: HttpSettings;
  /**
   * LLM_BASE_URL, LLM_API_KEY, LLM_MODEL: an OpenAI-compatible chat-completions endpoint answers
   * chat; undefined: the built-in offline assistant does.
   */
  llm?: { baseUrl: string; apiKey: string; model: string };
  /** CARD_ISSUER (lib/provider-config.ts); undefined: none, issuing a card answers 503 CRD-503-001 */
  cardIssuer?: "sandbox";
  /** KYC_PROVIDER (lib/provider-config.ts); undefined: none, the KYC routes that need one answer 503 */
  kycProvider?: KycProviderConfig;
  /** SMS_PROVIDER (lib/provider-config.ts); undefined: none, sending a code answers 503 */
  smsProvider?: SmsProviderConfig;
  /** RATE_LIMITS and RATE_LIMIT_STORE (lib/rate-limit/config.ts) */
  rateLimits: RateLimitConfig;
  /** ENVIRONMENT_LIMITS: users and Safe deployments per environment (lib/environment-limits.ts) */
  environmentLimits: EnvironmentLimits;
  /** REGISTRATION_PROOF: where POST /v0/user/ demands proof of control of the address (lib/registration-proof.ts) */
  registrationProof: RegistrationProofPolicy;
  /** GRAPHQL_LIMITS, GRAPHQL_INTROSPECTION and GRAPHQL_IDE (lib/graphql/limits.ts) */
  graphql: GraphqlLimitConfig;
  databaseUrl?: string;
  /** DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS: PostgreSQL's deadlines (lib/db/database-timeouts.ts) */
  databaseTimeouts: DatabaseTimeouts;
  dataDir: string;
  host: string;
  port: number;
  identityPort: number;
  rpcPort: number;
  graphqlPort: number;
  /** split mode: the gateway's internal listener (adapter-signed requests only; never published) */
  gatewayInternalPort: number;
  /** TRUST_PROXY (lib/trust-proxy.ts): proxies whose X-Forwarded-For names the client on the public listeners */
  trustProxy: TrustProxy;
  /** CORS_ORIGINS (lib/cors.ts): the web origins whose pages may call the platform and identity listeners */
  corsOrigins: CorsOrigins;
  authProviders: AuthProviderConfig[];
  dashboardAuth: AuthProviderConfig[];
  /** JWKS_ALLOW_LOOPBACK_HTTP: where any jwks_uri (AUTH_PROVIDERS, DASHBOARD_AUTH, environments) may point */
  jwksPolicy: JwksUriPolicy;
  /** WEBHOOK_ALLOW_LOOPBACK: where a webhook endpoint's `url` may point (lib/net/public-url.ts) */
  webhookUrlPolicy: PublicUrlPolicy;
  identityBootstrap?: IdentityBootstrap;
  publicBaseUrl: string;
  /**
   * SANDBOX_WEBHOOK_BASE_URL: the REST adapter as the users and finance services reach it, where
   * their sandbox providers (KYC, banking) deliver webhooks; real providers use PUBLIC_BASE_URL
   */
  sandboxWebhookBaseUrl: string;
  publicIdentityUrl: string;
  publicRpcUrl: string;
  docsUrl: string;
  walletClaimWebhookSecrets: string[];
  /** the real KYC provider's webhook secret; the sandbox signs with its own (lib/webhooks/sandbox-webhook-secret.ts) */
  kycWebhookSecret?: string;
  /** KYC_WEBHOOK_TOLERANCE_SECONDS: how old (or how far ahead) a KYC event's createdAtMs may be */
  kycWebhookToleranceSeconds: number;
  /** BANKING_WEBHOOK_SECRET: the real banking provider's webhook secrets, comma-separated during a rotation (lib/webhooks/banking-signature.ts) */
  bankingWebhookSecrets: string[];
  /** BANKING_WEBHOOK_TOLERANCE_SECONDS: how far a banking delivery's signed timestamp may be from the server clock */
  bankingWebhookToleranceSeconds: number;
  chainRpcUrls: Record<number, string>;
  /** PRICE_SOURCE, ASSET_PRICES, PRICE_FEEDS, PRICE_MAX_AGE_SECONDS, PRICE_CACHE_SECONDS (lib/price-config.ts) */
  prices: PriceConfig;
  /** BALANCE_SOURCE, BALANCE_CACHE_SECONDS (lib/balance-config.ts) */
  balances: BalanceConfig;
  /** private JWK; undefined means generate once and keep in DATA_DIR */
  signingKey?: Record<string, unknown>;
  /** CARD_DATA_KEY: the AES-256 key sealing card numbers and CVVs; undefined means generate once and keep in DATA_DIR */
  cardDataKey?: Buffer;
  logLevel: string;
  /** HMAC secret for the principal header between services; generated per process when unset */
  internalSecret?: string;
  /** split mode: where the gateway finds each subgraph, and where the adapter finds the gateway's internal listener */
  subgraphUrls: Partial<Record<SubgraphName, string>>;
  gatewayUrl: string;
  /** undefined only outside sandbox mode when SAFE_DEPLOYER is unset: the users service refuses to start (requireSafeDeployer) */
  safeDeployer?: SafeDeployerKind;
  safeDeployDelayMs: number;
  /** owner addresses (lower case) whose sandbox deployment fails, or "*" for all; for tests and demos */
  safeSandboxFailures: string[];
  safeDeployerKey?: `0x${string}`;
  /** the CLI's deployment-wide default for `debug` (GET /v0/cli/config without a token) */
  cliDebugDefault: boolean;
  /** how long the gateway keeps an identity environment's providers (x-platform-orgid) before asking again */
  environmentCacheTtlMs: number;
  /** PINT_DOMAIN_SALT (lib/pint-domain.ts): the salt of the PINT EIP-712 domain */
  pintDomainSalt: `0x${string}`;
  /** SHUTDOWN_TIMEOUT_MS: after SIGTERM, how long in-flight requests and jobs get before the process exits anyway */
  shutdownTimeoutMs: number;
  /** JOB_LEASE_MS: how long a claimed job stays invisible to other workers; a crashed worker's jobs run again after it */
  jobLeaseMs: number;
  /** METRICS_PORT: Prometheus `GET /metrics` on its own listener (lib/metrics.ts); unset: no metrics */
  metricsPort?: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where spans go over OTLP/HTTP (lib/tracing.ts); unset: no tracing */
  otlpEndpoint?: string;
  /** WORKERS: processes serving the same ports (server/workers.ts); 1: this process serves */
  workers: number;
  /** HEAP_GROWING_PERCENT (lib/heap-growth.ts): V8's old-generation growth between full collections; 0: V8's own */
  heapGrowingPercent: number;
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

/** An OpenAI-compatible model for chat: all three variables, or none (LLM_API_KEY may be empty for local servers). */
function llmConfig(env: Env): Config["llm"] {
  if (envText(env, "LLM_BASE_URL") === undefined) {
    for (const name of ["LLM_MODEL", "LLM_API_KEY"]) if (envText(env, name) !== undefined) throw new ConfigError(name, "needs LLM_BASE_URL");
    return undefined;
  }
  const model = envText(env, "LLM_MODEL");
  if (model === undefined) throw new ConfigError("LLM_MODEL", "is required with LLM_BASE_URL");
  return { baseUrl: url(env, "LLM_BASE_URL", ""), apiKey: envText(env, "LLM_API_KEY") ?? "", model };
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

function providers(env: Env, name: string, names: readonly string[] | undefined, jwksPolicy: JwksUriPolicy): AuthProviderConfig[] {
  const value = json(env, name);
  if (value === undefined) return [];
  return parseAuthProviders(value, name, names, jwksPolicy);
}

/** http and loopback JWKS for tests and local development; never in production, where a jwks_uri is someone else's choice. */
function jwksPolicy(env: Env): JwksUriPolicy {
  const allowLoopbackHttp = bool(env, "JWKS_ALLOW_LOOPBACK_HTTP", false);
  if (allowLoopbackHttp && envText(env, "NODE_ENV") === "production")
    throw new ConfigError("JWKS_ALLOW_LOOPBACK_HTTP", "is a development switch; it is refused when NODE_ENV=production");
  return { allowLoopbackHttp };
}

/**
 * Webhook endpoints on this machine (`http://127.0.0.1:…`, `localhost`) for sandbox development,
 * like `stripe listen`; never in production, where an endpoint's URL is an organisation's choice.
 */
function webhookUrlPolicy(env: Env, sandbox: boolean): PublicUrlPolicy {
  const production = envText(env, "NODE_ENV") === "production";
  const allowLoopbackHttp = bool(env, "WEBHOOK_ALLOW_LOOPBACK", sandbox && !production);
  if (allowLoopbackHttp && production) throw new ConfigError("WEBHOOK_ALLOW_LOOPBACK", "is a development switch; it is refused when NODE_ENV=production");
  return { allowLoopbackHttp, switchName: "WEBHOOK_ALLOW_LOOPBACK" };
}

/**
 * AUTH_PROVIDERS-shaped entries (`[{name, issuer, jwks_uri | public_key, audience?, mode?}]`),
 * validated and normalised (unknown fields dropped). `name` labels the value in errors: a
 * ConfigError names the failing entry and field (`<name>[0].issuer`). `names` restricts the
 * provider names (AUTH_PROVIDER_NAMES; undefined: any string); a `siwe` entry may leave out its keys. Also used for an
 * identity environment's `auth_providers` (subgraphs/identity/environments). `jwks_uri` must be
 * https and must not name a private, loopback or otherwise internal address (lib/auth/jwks-fetch.ts;
 * the fetch checks resolved addresses again); `jwksPolicy` may admit loopback http. An `audience`,
 * when given, is non-empty and then required in every token.
 */
export function parseAuthProviders(value: unknown, name: string, names: readonly string[] | undefined, jwksPolicy: JwksUriPolicy = STRICT_JWKS_POLICY): AuthProviderConfig[] {
  if (!Array.isArray(value)) throw new ConfigError(name, "expected a JSON array of providers");
  return value.map((entry, index): AuthProviderConfig => {
    const at = `${name}[${index}]`;
    if (!isRecord(entry)) throw new ConfigError(at, "expected an object");
    const { name: providerName, issuer, jwks_uri, public_key, audience, mode } = entry;
    if (typeof providerName !== "string" || (names && !names.includes(providerName)))
      throw new ConfigError(`${at}.name`, names ? `expected one of ${names.join(", ")}` : "expected a string");
    if (typeof issuer !== "string" || issuer === "") throw new ConfigError(`${at}.issuer`, "expected a non-empty string");
    if (jwks_uri !== undefined) {
      if (typeof jwks_uri !== "string") throw new ConfigError(`${at}.jwks_uri`, "expected an https URL");
      const problem = jwksUriProblem(jwks_uri, jwksPolicy);
      if (problem) throw new ConfigError(`${at}.jwks_uri`, problem);
    }
    if (public_key !== undefined && typeof public_key !== "string" && !isRecord(public_key))
      throw new ConfigError(`${at}.public_key`, "expected a PEM string or a JWK object");
    if (jwks_uri === undefined && public_key === undefined && providerName !== "siwe")
      throw new ConfigError(at, "needs jwks_uri or public_key");
    if (audience !== undefined && !(typeof audience === "string" && audience !== "") && !(Array.isArray(audience) && audience.length > 0 && audience.every((a) => typeof a === "string" && a !== "")))
      throw new ConfigError(`${at}.audience`, "expected a non-empty string or a non-empty array of them");
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

function bootstrap(env: Env, dashboardAuth: AuthProviderConfig[]): IdentityBootstrap | undefined {
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
  // membership is keyed on issuer and subject: a member without an issuer belongs to the only dashboard issuer
  const issuers = [...new Set(dashboardAuth.map((p) => p.issuer))];
  const resolved = (members as Record<string, unknown>[]).map((member, i) => {
    if (member.issuer === undefined) {
      if (issuers.length !== 1) throw new ConfigError(`${name}.members[${i}].issuer`, `is required unless DASHBOARD_AUTH names exactly one issuer (it names ${issuers.length})`);
      return { ...member, issuer: issuers[0]! };
    }
    if (typeof member.issuer !== "string" || member.issuer === "") throw new ConfigError(`${name}.members[${i}].issuer`, "expected a non-empty string");
    if (issuers.length > 0 && !issuers.includes(member.issuer)) throw new ConfigError(`${name}.members[${i}].issuer`, "is not an issuer of DASHBOARD_AUTH");
    return member;
  });
  return { ...value, members: resolved } as unknown as IdentityBootstrap;
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

function cardDataKey(env: Env): Buffer | undefined {
  const value = envText(env, "CARD_DATA_KEY");
  if (value === undefined) return undefined;
  const key = Buffer.from(value, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || key.length !== 32) throw new ConfigError("CARD_DATA_KEY", "expected 32 bytes in base64 (openssl rand -base64 32)");
  return key;
}

function subgraphUrls(env: Env): Config["subgraphUrls"] {
  const result: Config["subgraphUrls"] = {};
  for (const { name, urlVariable } of SUBGRAPHS) {
    if (envText(env, urlVariable) !== undefined) result[name] = url(env, urlVariable, "");
  }
  return result;
}

/**
 * WORKERS: a count, or `auto` for the cores this process may use. Several workers share state only
 * through PostgreSQL: the embedded PGlite belongs to one process, and memory rate limits would give
 * every worker a budget of its own.
 */
function workers(env: Env, databaseUrl: string | undefined, rateLimits: RateLimitConfig): number {
  const raw = envText(env, "WORKERS");
  if (raw === undefined) return 1;
  const count = raw.toLowerCase() === "auto" ? availableParallelism() : Number(raw);
  if (!Number.isInteger(count) || count < 1) throw new ConfigError("WORKERS", `expected a positive integer or auto, got "${raw}"`);
  if (count === 1) return 1;
  if (databaseUrl === undefined) throw new ConfigError("WORKERS", `${count} workers need DATABASE_URL (PostgreSQL): the embedded PGlite database belongs to one process`);
  if (rateLimits.store === "memory") throw new ConfigError("WORKERS", `${count} workers need RATE_LIMIT_STORE=postgres: with memory each worker would count its own budget`);
  return count;
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

  const sandbox = bool(env, "SANDBOX", envText(env, "NODE_ENV") !== "production");
  const safeDeployer = envText(env, "SAFE_DEPLOYER") ?? (sandbox ? "sandbox" : undefined);
  if (safeDeployer !== undefined && safeDeployer !== "sandbox" && safeDeployer !== "chain") throw new ConfigError("SAFE_DEPLOYER", 'expected "sandbox" or "chain"');
  if (safeDeployer === "sandbox" && !sandbox) throw new ConfigError("SAFE_DEPLOYER", "set chain (sandbox needs SANDBOX=true)");
  const safeSandboxFailures = (envText(env, "SAFE_SANDBOX_FAILURES") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (safeSandboxFailures.length && !sandbox) throw new ConfigError("SAFE_SANDBOX_FAILURES", "is a sandbox test helper; it needs SANDBOX=true");
  const safeDeployerKey = envText(env, "SAFE_DEPLOYER_KEY");
  if (safeDeployerKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(safeDeployerKey))
    throw new ConfigError("SAFE_DEPLOYER_KEY", "expected a 32-byte hex private key");
  if (safeDeployer === "chain" && safeDeployerKey === undefined)
    throw new ConfigError("SAFE_DEPLOYER_KEY", "is required when SAFE_DEPLOYER=chain");

  const internalSecret = envText(env, "INTERNAL_SECRET");
  if (internalSecret !== undefined && internalSecret.length < 32)
    throw new ConfigError("INTERNAL_SECRET", "must be at least 32 characters");

  const sandboxIssuer = bool(env, "SANDBOX_ISSUER", sandbox && envText(env, "NODE_ENV") !== "production");
  const publicIdentityUrl = url(env, "PUBLIC_IDENTITY_URL", `http://localhost:${identityPort}`);
  const jwks = jwksPolicy(env);
  const dashboardAuth = providers(env, "DASHBOARD_AUTH", undefined, jwks);

  const kycProvider = loadKycProviderConfig(env, sandbox);
  const cardIssuer = loadCardIssuerName(env, sandbox);
  const rpcUrls = chainRpcUrls(env);
  const smsProvider = loadSmsProviderConfig(env, sandbox);
  const llm = llmConfig(env);

  const rateLimits = loadRateLimitConfig(env);

  return {
    sandbox,
    sandboxIssuer,
    workers: workers(env, databaseUrl, rateLimits),
    heapGrowingPercent: nonNegativeInt(env, "HEAP_GROWING_PERCENT", 50),
    jobLeaseMs: Math.max(1_000, nonNegativeInt(env, "JOB_LEASE_MS", 60_000)),
    shutdownTimeoutMs: nonNegativeInt(env, "SHUTDOWN_TIMEOUT_MS", 15_000),
    ...(envText(env, "METRICS_PORT") !== undefined && { metricsPort: port(env, "METRICS_PORT", 0) }),
    ...(envText(env, "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined && { otlpEndpoint: url(env, "OTEL_EXPORTER_OTLP_ENDPOINT", "") }),
    http: {
      requestTimeoutMs: nonNegativeInt(env, "HTTP_REQUEST_TIMEOUT_MS", DEFAULT_HTTP_SETTINGS.requestTimeoutMs),
      keepAliveTimeoutMs: nonNegativeInt(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", DEFAULT_HTTP_SETTINGS.keepAliveTimeoutMs),
      maxEventLoopDelayMs: nonNegativeInt(env, "LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS", DEFAULT_HTTP_SETTINGS.maxEventLoopDelayMs),
      loadSampleIntervalMs: Math.max(1, nonNegativeInt(env, "LOAD_SHED_SAMPLE_INTERVAL_MS", DEFAULT_HTTP_SETTINGS.loadSampleIntervalMs)),
      loadShedRetryAfterSeconds: Math.max(1, nonNegativeInt(env, "LOAD_SHED_RETRY_AFTER_SECONDS", DEFAULT_HTTP_SETTINGS.loadShedRetryAfterSeconds)),
    },
    ...(llm && { llm }),
    ...(kycProvider && { kycProvider }),
    ...(cardIssuer && { cardIssuer }),
    ...(smsProvider && { smsProvider }),
    rateLimits,
    environmentLimits: loadEnvironmentLimits(env),
    registrationProof: loadRegistrationProof(env),
    graphql: loadGraphqlLimitConfig(env),
    ...(databaseUrl !== undefined && { databaseUrl }),
    databaseTimeouts: loadDatabaseTimeouts(env),
    dataDir: envText(env, "DATA_DIR") ?? "./data",
    host: envText(env, "HOST") ?? "127.0.0.1",
    port: port_,
    identityPort,
    rpcPort,
    graphqlPort,
    gatewayInternalPort: port(env, "GATEWAY_INTERNAL_PORT", 4010),
    trustProxy: parseTrustProxy(env),
    corsOrigins: parseCorsOrigins(env),
    authProviders: [...providers(env, "AUTH_PROVIDERS", AUTH_PROVIDER_NAMES, jwks), ...(sandboxIssuer ? sandboxAuthProviders(publicBaseUrl) : [])],
    jwksPolicy: jwks,
    webhookUrlPolicy: webhookUrlPolicy(env, sandbox),
    dashboardAuth,
    identityBootstrap: bootstrap(env, dashboardAuth),
    publicBaseUrl,
    sandboxWebhookBaseUrl: url(env, "SANDBOX_WEBHOOK_BASE_URL", publicBaseUrl),
    publicIdentityUrl,
    pintDomainSalt: loadPintDomainSalt(env, publicIdentityUrl),
    publicRpcUrl: url(env, "PUBLIC_RPC_URL", `http://localhost:${rpcPort}`),
    docsUrl: url(env, "DOCS_URL", `${publicBaseUrl}/docs`),
    walletClaimWebhookSecrets: webhookSecrets(env),
    kycWebhookSecret: envText(env, "KYC_WEBHOOK_SECRET"),
    kycWebhookToleranceSeconds: nonNegativeInt(env, "KYC_WEBHOOK_TOLERANCE_SECONDS", DEFAULT_KYC_WEBHOOK_TOLERANCE_SECONDS),
    bankingWebhookSecrets: (envText(env, "BANKING_WEBHOOK_SECRET") ?? "").split(",").map((secret) => secret.trim()).filter(Boolean),
    bankingWebhookToleranceSeconds: nonNegativeInt(env, "BANKING_WEBHOOK_TOLERANCE_SECONDS", DEFAULT_BANKING_WEBHOOK_TOLERANCE_SECONDS),
    chainRpcUrls: rpcUrls,
    prices: loadPriceConfig(env, rpcUrls),
    balances: loadBalanceConfig(env, rpcUrls),
    signingKey: signingKey(env),
    cardDataKey: cardDataKey(env),
    logLevel,
    internalSecret,
    subgraphUrls: subgraphUrls(env),
    gatewayUrl: url(env, "GATEWAY_URL", "http://gateway:4010/graphql"),
    ...(safeDeployer !== undefined && { safeDeployer }),
    safeDeployDelayMs: nonNegativeInt(env, "SAFE_DEPLOY_DELAY_MS", 2000),
    safeSandboxFailures,
    ...(safeDeployerKey !== undefined && { safeDeployerKey: safeDeployerKey as `0x${string}` }),
    cliDebugDefault: bool(env, "CLI_DEBUG", false),
    environmentCacheTtlMs: nonNegativeInt(env, "ENVIRONMENT_CACHE_TTL_MS", 30_000),
  };
}

/** The users service deploys Safes: outside sandbox mode it needs SAFE_DEPLOYER=chain said explicitly. */
export function requireSafeDeployer(config: Pick<Config, "safeDeployer">): SafeDeployerKind {
  if (config.safeDeployer === undefined) throw new ConfigError("SAFE_DEPLOYER", "set chain (sandbox needs SANDBOX=true)");
  return config.safeDeployer;
}
