import { mkdtempSync, writeFileSync } from "node:fs";
import { SANDBOX_AUDIENCE, sandboxAuthProviders } from "../../lib/auth/sandbox-issuer.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUTH_PROVIDER_NAMES, ConfigError, loadConfig, parseAuthProviders, requireSafeDeployer } from "../../lib/config.ts";
import { corsOriginAllowed, DEVELOPMENT_CORS_ORIGINS } from "../../lib/cors.ts";
import { documentServer } from "../../rest-adapter/route-kit/openapi.ts";

const PROVIDER = { name: "provider_a", issuer: "https://a.test", jwks_uri: "https://a.test/.well-known/jwks.json" };

/** The ConfigError `env` causes; fails the test when it loads. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig defaults", () => {
  it("starts with nothing set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      dataDir: "./data",
      host: "127.0.0.1",
      port: 8080,
      identityPort: 8081,
      rpcPort: 8082,
      graphqlPort: 4000,
      sandboxIssuer: true,
      authProviders: sandboxAuthProviders("http://localhost:8080"),
      dashboardAuth: [],
      publicBaseUrl: "http://localhost:8080",
      sandboxWebhookBaseUrl: "http://localhost:8080",
      publicIdentityUrl: "http://localhost:8081",
      publicRpcUrl: "http://localhost:8082",
      docsUrl: "http://localhost:8080/docs",
      walletClaimWebhookSecrets: [],
      chainRpcUrls: {},
      logLevel: "info",
      subgraphUrls: {},
      safeDeployer: "sandbox",
      safeDeployDelayMs: 2000,
      safeSandboxFailures: [],
      cliDebugDefault: false,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.signingKey).toBeUndefined();
    expect(config.identityBootstrap).toBeUndefined();
    expect(config.gatewayUrl).toBe("http://gateway:4010/graphql");
    expect(config.gatewayInternalPort).toBe(4010);
    expect(config.trustProxy).toBe(false);
    expect(config.safeDeployerKey).toBeUndefined();
  });

  it("treats blank values as unset and follows PORT into the public base URL", () => {
    expect(loadConfig({ PORT: "  ", LOG_LEVEL: "" }).port).toBe(8080);
    const config = loadConfig({ PORT: "9000" });
    expect(config.publicBaseUrl).toBe("http://localhost:9000");
    expect(config.docsUrl).toBe("http://localhost:9000/docs");
    expect(loadConfig({ PUBLIC_BASE_URL: "https://api.example.com/" }).publicBaseUrl).toBe("https://api.example.com");
  });

  it("sends the sandbox providers' webhooks to PUBLIC_BASE_URL unless SANDBOX_WEBHOOK_BASE_URL names the adapter's internal address", () => {
    expect(loadConfig({ PUBLIC_BASE_URL: "https://api.example.com" }).sandboxWebhookBaseUrl).toBe("https://api.example.com");
    expect(loadConfig({ PUBLIC_BASE_URL: "https://api.example.com", SANDBOX_WEBHOOK_BASE_URL: "http://adapter:8080/" }).sandboxWebhookBaseUrl).toBe("http://adapter:8080");
  });

  it("reads valid values", () => {
    const config = loadConfig({
      AUTH_PROVIDERS: JSON.stringify([PROVIDER, { name: "provider_b", issuer: "https://b.test", public_key: { kty: "EC" }, audience: ["app"], mode: "app_id_only" }, { name: "siwe", issuer: "https://siwe.test" }]),
      SANDBOX_ISSUER: "false",
      CHAIN_RPC_URLS: JSON.stringify({ 8453: "https://base.test", 1: "wss://eth.test" }),
      WALLET_CLAIM_WEBHOOK_SECRETS: "whsec_c2VjcmV0, whsec_b3RoZXI=",
      LOG_LEVEL: "debug",
      DATABASE_URL: "postgresql://u@h/db",
      SAFE_DEPLOYER: "chain",
      SAFE_DEPLOYER_KEY: `0x${"ab".repeat(32)}`,
      CLI_DEBUG: "yes",
      SIGNING_KEY: JSON.stringify({ kty: "EC", d: "x", crv: "P-256" }),
    });
    expect(config.authProviders).toEqual([
      PROVIDER,
      { name: "provider_b", issuer: "https://b.test", public_key: { kty: "EC" }, audience: ["app"], mode: "app_id_only" },
      { name: "siwe", issuer: "https://siwe.test" },
    ]);
    expect(config.chainRpcUrls).toEqual({ 8453: "https://base.test", 1: "wss://eth.test" });
    expect(config.walletClaimWebhookSecrets).toEqual(["whsec_c2VjcmV0", "whsec_b3RoZXI="]);
    expect(config).toMatchObject({ logLevel: "debug", databaseUrl: "postgresql://u@h/db", safeDeployer: "chain", cliDebugDefault: true });
  });
});

describe("loadConfig refuses bad values with a ConfigError naming the variable", () => {
  it.each([
    ["PORT", { PORT: "http" }],
    ["PORT", { PORT: "70000" }],
    ["PORT", { PORT: "-1" }],
    ["PORT", { PORT: "80.5" }],
    ["GRAPHQL_PORT", { GRAPHQL_PORT: "x" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "ftp://x.test" }],
    ["SANDBOX_WEBHOOK_BASE_URL", { SANDBOX_WEBHOOK_BASE_URL: "adapter:8080" }],
    ["CLI_DEBUG", { CLI_DEBUG: "maybe" }],
    ["SAFE_DEPLOY_DELAY_MS", { SAFE_DEPLOY_DELAY_MS: "-5" }],
    ["INTERNAL_SECRET", { INTERNAL_SECRET: "short" }],
  ])("%s (%j)", (variable, env) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}:`)).toBe(true);
  });

  it.each([
    ["bad JSON", "[{", "AUTH_PROVIDERS", /valid JSON/],
    ["not an array", JSON.stringify(PROVIDER), "AUTH_PROVIDERS", /array/],
    ["not an object", JSON.stringify(["provider_a"]), "AUTH_PROVIDERS[0]", /object/],
    ["an unknown provider name", JSON.stringify([{ ...PROVIDER, name: "provider_c" }]), "AUTH_PROVIDERS[0].name", /provider_a, provider_b, siwe/],
    ["a missing issuer", JSON.stringify([{ name: "provider_a", jwks_uri: PROVIDER.jwks_uri }]), "AUTH_PROVIDERS[0].issuer", /non-empty/],
    ["an empty issuer", JSON.stringify([{ ...PROVIDER, issuer: "" }]), "AUTH_PROVIDERS[0].issuer", /non-empty/],
    ["no key source", JSON.stringify([PROVIDER, { name: "provider_b", issuer: "https://b.test" }]), "AUTH_PROVIDERS[1]", /jwks_uri or public_key/],
    ["a non-http jwks_uri", JSON.stringify([{ ...PROVIDER, jwks_uri: "file:///etc/passwd" }]), "AUTH_PROVIDERS[0].jwks_uri", /http/],
    ["a numeric public_key", JSON.stringify([{ name: "provider_b", issuer: "https://b.test", public_key: 5 }]), "AUTH_PROVIDERS[0].public_key", /PEM|JWK/],
    ["a bad audience", JSON.stringify([{ ...PROVIDER, audience: 5 }]), "AUTH_PROVIDERS[0].audience", /string/],
    ["a bad mode", JSON.stringify([{ ...PROVIDER, mode: "everything" }]), "AUTH_PROVIDERS[0].mode", /app_id_only/],
  ])("AUTH_PROVIDERS with %s", (_, value, variable, problem) => {
    const error = configError({ AUTH_PROVIDERS: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain("AUTH_PROVIDERS");
    expect(error.message).toMatch(problem);
  });

  it.each([
    ["bad JSON", "{", "CHAIN_RPC_URLS"],
    ["an array", "[]", "CHAIN_RPC_URLS"],
    ["a non-numeric chain id", JSON.stringify({ base: "https://x.test" }), "CHAIN_RPC_URLS"],
    ["chain id 0", JSON.stringify({ 0: "https://x.test" }), "CHAIN_RPC_URLS"],
    ["a non-URL", JSON.stringify({ 8453: "localhost:8545" }), "CHAIN_RPC_URLS.8453"],
  ])("CHAIN_RPC_URLS with %s", (_, value, variable) => {
    const error = configError({ CHAIN_RPC_URLS: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain("CHAIN_RPC_URLS");
  });

  it.each(["secret", "whsec_", "whsec_not base64!", "whsec_c2VjcmV0,plain"])("WALLET_CLAIM_WEBHOOK_SECRETS=%j", (value) => {
    expect(configError({ WALLET_CLAIM_WEBHOOK_SECRETS: value }).variable).toBe("WALLET_CLAIM_WEBHOOK_SECRETS");
  });

  it.each(["{", JSON.stringify({ kty: "EC" }), JSON.stringify({ d: "x" }), JSON.stringify(["kty"])])("SIGNING_KEY=%s (not a private JWK)", (value) => {
    expect(configError({ SIGNING_KEY: value }).variable).toBe("SIGNING_KEY");
  });

  it.each(["verbose", "INFO", "warning"])("LOG_LEVEL=%s", (value) => {
    const error = configError({ LOG_LEVEL: value });
    expect(error.variable).toBe("LOG_LEVEL");
    expect(error.message).toContain("fatal, error, warn, info, debug, trace, silent");
  });

  it.each(["mysql://u@h/db", "file:./data.db", "localhost:5432"])("DATABASE_URL=%s", (value) => {
    expect(configError({ DATABASE_URL: value }).variable).toBe("DATABASE_URL");
  });

  it("SAFE_DEPLOYER=chain without SAFE_DEPLOYER_KEY, a malformed key, and an unknown deployer", () => {
    expect(configError({ SAFE_DEPLOYER: "chain" })).toMatchObject({ variable: "SAFE_DEPLOYER_KEY", message: expect.stringContaining("SAFE_DEPLOYER=chain") });
    expect(configError({ SAFE_DEPLOYER: "chain", SAFE_DEPLOYER_KEY: "0x1234" }).variable).toBe("SAFE_DEPLOYER_KEY");
    expect(configError({ SAFE_DEPLOYER: "hardhat" }).variable).toBe("SAFE_DEPLOYER");
  });

  it("is a ConfigError whose name and message let start-up print it as is", () => {
    const error = configError({ PORT: "nope" });
    expect(error.name).toBe("ConfigError");
    expect(error.message).toBe('PORT: expected a TCP port (0-65535), got "nope"');
  });
});

describe("@file form of JSON variables", () => {
  const dir = mkdtempSync(join(tmpdir(), "config-test-"));

  it("reads AUTH_PROVIDERS, CHAIN_RPC_URLS and SIGNING_KEY from a file", () => {
    const providers = join(dir, "providers.json");
    writeFileSync(providers, JSON.stringify([PROVIDER]));
    const chains = join(dir, "chains.json");
    writeFileSync(chains, JSON.stringify({ 8453: "https://base.test" }));
    const key = join(dir, "key.json");
    writeFileSync(key, JSON.stringify({ kty: "EC", d: "x" }));
    const config = loadConfig({ AUTH_PROVIDERS: `@${providers}`, CHAIN_RPC_URLS: `@${chains}`, SIGNING_KEY: `@${key}` });
    expect(config.authProviders.filter((provider) => provider.audience !== SANDBOX_AUDIENCE)).toEqual([PROVIDER]);
    expect(config.chainRpcUrls).toEqual({ 8453: "https://base.test" });
    expect(config.signingKey).toEqual({ kty: "EC", d: "x" });
  });

  it("names the variable when the file is missing or not JSON", () => {
    const missing = configError({ AUTH_PROVIDERS: `@${join(dir, "nope.json")}` });
    expect(missing.variable).toBe("AUTH_PROVIDERS");
    expect(missing.message).toContain("cannot read file");
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "not json");
    expect(configError({ CHAIN_RPC_URLS: `@${broken}` }).message).toBe("CHAIN_RPC_URLS: is not valid JSON");
  });

  it("applies the same checks to file contents", () => {
    const bad = join(dir, "bad-providers.json");
    writeFileSync(bad, JSON.stringify([{ name: "provider_a", issuer: "https://a.test" }]));
    expect(configError({ AUTH_PROVIDERS: `@${bad}` }).variable).toBe("AUTH_PROVIDERS[0]");
  });
});

describe("DATABASE_*_TIMEOUT_MS", () => {
  it("bounds every PostgreSQL call by default: 5 s to connect, 5 s a statement, 2 s a lock", () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5_000, statementMs: 5_000, lockMs: 2_000 });
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: "2000", DATABASE_STATEMENT_TIMEOUT_MS: "30000", DATABASE_LOCK_TIMEOUT_MS: "100" }).databaseTimeouts).toEqual({ connectMs: 2_000, statementMs: 30_000, lockMs: 100 });
  });

  it("refuses what is no deadline: zero, negative, fractional, beyond a day, or no number", () => {
    for (const name of ["DATABASE_CONNECT_TIMEOUT_MS", "DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS"])
      for (const value of ["0", "-1", "1.5", "86400001", "soon"]) expect(configError({ [name]: value }).variable, `${name}=${value}`).toBe(name);
  });
});

describe("ENVIRONMENT_CACHE_TTL_MS and the exported provider parser", () => {
  it("keeps identity environments 30 s by default", () => {
    expect(loadConfig({}).environmentCacheTtlMs).toBe(30_000);
    expect(loadConfig({ ENVIRONMENT_CACHE_TTL_MS: "500" }).environmentCacheTtlMs).toBe(500);
    expect(configError({ ENVIRONMENT_CACHE_TTL_MS: "soon" }).variable).toBe("ENVIRONMENT_CACHE_TTL_MS");
  });

  it("restricts names for AUTH_PROVIDERS only: DASHBOARD_AUTH names are free", () => {
    const dashboard = { name: "dashboard", issuer: "https://dash.test", jwks_uri: "https://dash.test/jwks.json" };
    expect(loadConfig({ DASHBOARD_AUTH: JSON.stringify([dashboard]) }).dashboardAuth).toEqual([dashboard]);
    expect(() => parseAuthProviders([dashboard], "auth_providers", AUTH_PROVIDER_NAMES)).toThrow(/auth_providers\[0\]\.name: expected one of provider_a, provider_b, siwe/);
    expect(parseAuthProviders([{ ...PROVIDER, extra: true }], "auth_providers", AUTH_PROVIDER_NAMES)).toEqual([PROVIDER]);
  });
});

describe("SANDBOX and the providers it allows", () => {
  const TWILIO = { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: `AC${"0a".repeat(16)}`, TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+15005550006" };
  const SUMSUB = { KYC_PROVIDER: "sumsub", SUMSUB_APP_TOKEN: "sbx:app", SUMSUB_SECRET_KEY: "secret" };
  const CHAIN = { SAFE_DEPLOYER: "chain", SAFE_DEPLOYER_KEY: `0x${"ab".repeat(32)}` };

  it("is on unless NODE_ENV is production, with the sandbox providers by default", () => {
    for (const env of [{}, { NODE_ENV: "development" }, { NODE_ENV: "test" }]) {
      expect(loadConfig(env)).toMatchObject({ sandbox: true, kycProvider: { name: "sandbox" }, smsProvider: { name: "sandbox" }, safeDeployer: "sandbox" });
    }
    const production = loadConfig({ NODE_ENV: "production" });
    expect(production.sandbox).toBe(false);
    expect(production.kycProvider).toBeUndefined();
    expect(production.smsProvider).toBeUndefined();
    expect(production.safeDeployer).toBeUndefined();
  });

  it("the sandbox issuer follows sandbox mode, is off in production even with SANDBOX=true, and only SANDBOX_ISSUER=true turns it on there", () => {
    const issuers = (env: Record<string, string>) => loadConfig(env).authProviders.map((provider) => provider.issuer);
    expect(issuers({ PUBLIC_BASE_URL: "https://api.example.com" })).toEqual(["https://api.example.com/sandbox/issuers/provider_a", "https://api.example.com/sandbox/issuers/provider_b"]);
    expect(loadConfig({}).authProviders.every((provider) => provider.audience === SANDBOX_AUDIENCE && !provider.jwks_uri && !provider.public_key)).toBe(true);
    expect(issuers({ NODE_ENV: "production" })).toEqual([]);
    expect(issuers({ NODE_ENV: "production", SANDBOX: "true" })).toEqual([]);
    expect(issuers({ SANDBOX: "false", ...CHAIN })).toEqual([]);
    expect(issuers({ SANDBOX: "true", SANDBOX_ISSUER: "false" })).toEqual([]);
    expect(loadConfig({ NODE_ENV: "production", SANDBOX_ISSUER: "true" })).toMatchObject({ sandbox: false, sandboxIssuer: true });
    expect(configError({ SANDBOX_ISSUER: "maybe" }).variable).toBe("SANDBOX_ISSUER");
  });

  it("SANDBOX overrides NODE_ENV both ways: explicit sandbox in production is allowed", () => {
    expect(loadConfig({ NODE_ENV: "production", SANDBOX: "true" })).toMatchObject({ sandbox: true, kycProvider: { name: "sandbox" }, safeDeployer: "sandbox" });
    expect(loadConfig({ SANDBOX: "false", ...CHAIN })).toMatchObject({ sandbox: false, safeDeployer: "chain" });
    expect(configError({ SANDBOX: "perhaps" }).variable).toBe("SANDBOX");
  });

  it("outside sandbox mode the Safe deployer must be chosen: chain, never sandbox", () => {
    const off = loadConfig({ SANDBOX: "false" });
    expect(() => requireSafeDeployer(off)).toThrow(ConfigError);
    expect(() => requireSafeDeployer(off)).toThrow("SAFE_DEPLOYER: set chain (sandbox needs SANDBOX=true)");
    expect(configError({ SANDBOX: "false", SAFE_DEPLOYER: "sandbox" }).message).toBe("SAFE_DEPLOYER: set chain (sandbox needs SANDBOX=true)");
    expect(configError({ NODE_ENV: "production", SAFE_DEPLOYER: "sandbox" }).variable).toBe("SAFE_DEPLOYER");
    expect(requireSafeDeployer(loadConfig({ SANDBOX: "false", ...CHAIN }))).toBe("chain");
  });

  it("test helpers and sandbox providers are ConfigErrors outside sandbox mode", () => {
    expect(configError({ SANDBOX: "false", SAFE_SANDBOX_FAILURES: "*" }).variable).toBe("SAFE_SANDBOX_FAILURES");
    expect(configError({ SANDBOX: "false", KYC_PROVIDER: "sandbox" }).message).toBe("KYC_PROVIDER: sandbox needs SANDBOX=true");
    expect(configError({ SANDBOX: "false", SMS_PROVIDER: "sandbox" }).message).toBe("SMS_PROVIDER: sandbox needs SANDBOX=true");
    expect(loadConfig({ SAFE_SANDBOX_FAILURES: "*" }).safeSandboxFailures).toEqual(["*"]);
  });

  it("reads the Sumsub and Twilio settings, with their documented defaults", () => {
    const config = loadConfig({ SANDBOX: "false", ...SUMSUB, ...TWILIO });
    expect(config.kycProvider).toEqual({ name: "sumsub", appToken: "sbx:app", secretKey: "secret", levelName: "basic-kyc-level", baseUrl: "https://api.sumsub.com" });
    expect(config.smsProvider).toEqual({ name: "twilio", accountSid: TWILIO.TWILIO_ACCOUNT_SID, authToken: "token", from: "+15005550006", baseUrl: "https://api.twilio.com" });
    const custom = loadConfig({ ...SUMSUB, SUMSUB_LEVEL_NAME: "kyc-plus", SUMSUB_BASE_URL: "http://127.0.0.1:9/", ...TWILIO, TWILIO_BASE_URL: "http://127.0.0.1:8" });
    expect(custom.kycProvider).toMatchObject({ levelName: "kyc-plus", baseUrl: "http://127.0.0.1:9" });
    expect(custom.smsProvider).toMatchObject({ baseUrl: "http://127.0.0.1:8" });
  });

  it.each([
    ["KYC_PROVIDER", { KYC_PROVIDER: "onfido" }],
    ["SUMSUB_APP_TOKEN", { KYC_PROVIDER: "sumsub", SUMSUB_SECRET_KEY: "s" }],
    ["SUMSUB_SECRET_KEY", { KYC_PROVIDER: "sumsub", SUMSUB_APP_TOKEN: "t" }],
    ["SUMSUB_BASE_URL", { ...SUMSUB, SUMSUB_BASE_URL: "ftp://sumsub.test" }],
    ["SMS_PROVIDER", { SMS_PROVIDER: "carrier-pigeon" }],
    ["TWILIO_ACCOUNT_SID", { ...TWILIO, TWILIO_ACCOUNT_SID: "AC/../../evil" }],
    ["TWILIO_AUTH_TOKEN", { ...TWILIO, TWILIO_AUTH_TOKEN: "" }],
    ["TWILIO_FROM", { ...TWILIO, TWILIO_FROM: " " }],
    ["TWILIO_BASE_URL", { ...TWILIO, TWILIO_BASE_URL: "not a url" }],
    ["KYC_WEBHOOK_TOLERANCE_SECONDS", { KYC_WEBHOOK_TOLERANCE_SECONDS: "5 minutes" }],
  ])("%s (%j)", (variable, env) => {
    expect(configError(env).variable).toBe(variable);
  });

  it("keeps KYC events for 300 s by default", () => {
    expect(loadConfig({}).kycWebhookToleranceSeconds).toBe(300);
    expect(loadConfig({ KYC_WEBHOOK_TOLERANCE_SECONDS: "3600" }).kycWebhookToleranceSeconds).toBe(3600);
  });
});

describe("LLM_BASE_URL, LLM_API_KEY, LLM_MODEL (chat's model)", () => {
  it("leaves chat to the offline assistant when unset", () => {
    expect(loadConfig({}).llm).toBeUndefined();
  });

  it("takes all three, the key optional for local servers, the URL without its trailing slash", () => {
    expect(loadConfig({ LLM_BASE_URL: "http://127.0.0.1:11434/v1/", LLM_MODEL: "llama3.1" }).llm).toEqual({ baseUrl: "http://127.0.0.1:11434/v1", apiKey: "", model: "llama3.1" });
    expect(loadConfig({ LLM_BASE_URL: "https://api.openai.com/v1", LLM_API_KEY: "sk-x", LLM_MODEL: "gpt-4o-mini" }).llm).toMatchObject({ apiKey: "sk-x" });
  });

  it("refuses a model without a URL, a URL without a model, and a URL that is not http(s)", () => {
    expect(() => loadConfig({ LLM_MODEL: "gpt-4o-mini" })).toThrow(new ConfigError("LLM_MODEL", "needs LLM_BASE_URL"));
    expect(() => loadConfig({ LLM_BASE_URL: "https://api.openai.com/v1" })).toThrow(/LLM_MODEL/);
    expect(() => loadConfig({ LLM_BASE_URL: "ftp://x", LLM_MODEL: "m" })).toThrow(/LLM_BASE_URL/);
  });
});

describe("WORKERS", () => {
  const postgres = { DATABASE_URL: "postgres://app@127.0.0.1:5432/app" };

  it("is 1 by default, a count or auto (the cores this process may use) on PostgreSQL", async () => {
    const { availableParallelism } = await import("node:os");
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: "1" }).workers).toBe(1);
    expect(loadConfig({ ...postgres, WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ ...postgres, WORKERS: "auto" }).workers).toBe(availableParallelism());
  });

  it("refuses more than one worker on the embedded PGlite, or with memory rate limits, and anything but a positive count", () => {
    expect(configError({ WORKERS: "2" }).message).toBe("WORKERS: 2 workers need DATABASE_URL (PostgreSQL): the embedded PGlite database belongs to one process");
    expect(configError({ ...postgres, WORKERS: "2", RATE_LIMIT_STORE: "memory" }).message).toBe("WORKERS: 2 workers need RATE_LIMIT_STORE=postgres: with memory each worker would count its own budget");
    for (const raw of ["0", "-1", "1.5", "two"]) expect(configError({ ...postgres, WORKERS: raw }).variable).toBe("WORKERS");
  });
});

describe("restartDelayMs (WORKERS > 1: a crashed worker's replacement)", () => {
  it("waits 1 s after a crash, doubling per crash within the minute, at most 30 s", async () => {
    const { restartDelayMs } = await import("../../server/workers.ts");
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});

describe("CORS_ORIGINS", () => {
  it("defaults to every port of the loopback hosts in development and to none in production", () => {
    expect(loadConfig({}).corsOrigins).toEqual(DEVELOPMENT_CORS_ORIGINS);
    expect(loadConfig({ NODE_ENV: "production", SAFE_DEPLOYER: "chain", SAFE_DEPLOYER_KEY: `0x${"1".repeat(64)}` }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: "none" }).corsOrigins).toEqual([]);
  });

  it("takes origins and hosts with any port, in lower case", () => {
    expect(loadConfig({ CORS_ORIGINS: "https://App.Example.com, http://localhost:*,https://[::1]:8443" }).corsOrigins).toEqual(["https://app.example.com", "http://localhost:*", "https://[::1]:8443"]);
  });

  it("refuses *, paths and other schemes", () => {
    expect(configError({ CORS_ORIGINS: "*" }).message).toContain("list the origins");
    for (const value of ["https://app.example.com/", "https://app.example.com/app", "ftp://x.example", "app.example.com", "https://*.example.com"])
      expect(configError({ CORS_ORIGINS: value }).message, value).toContain("CORS_ORIGINS");
  });

  it("matches an Origin exactly, or a host's any port", () => {
    const origins = ["https://app.example.com", "http://localhost:*"];
    for (const origin of ["https://app.example.com", "HTTPS://APP.EXAMPLE.COM", "http://localhost", "http://localhost:3000"]) expect(corsOriginAllowed(origins, origin), origin).toBe(true);
    for (const origin of ["null", "https://app.example.com:443", "http://app.example.com", "https://app.example.com.evil.example", "http://localhost.evil.example", "http://localhost:3000.evil.example", "https://localhost:3000"])
      expect(corsOriginAllowed(origins, origin), origin).toBe(false);
  });

  it("the OpenAPI documents' server is the public URL's path, relative to the document", () => {
    expect(documentServer("http://localhost:8080").url).toBe("/");
    expect(documentServer("https://api.example.com/platform/").url).toBe("/platform");
  });
});
