import { loadConfig } from "../../lib/config.ts";
import { createLogger } from "../../lib/logger.ts";
import { startSingleProcess, type RunningPlatform, type StartOptions } from "../../server/single-process.ts";
import { TestIssuer } from "./jwt-issuer.ts";
import type { PrivateKeyAccount } from "viem/accounts";
import { freePort, randomAddress } from "./net.ts";
import { newAccount, registrationBody } from "./registration.ts";

export { freePort, randomAddress };
import { freshDatabaseUrl } from "./test-database.ts";
import type { ResponseMismatch } from "../../rest-adapter/route-kit/response-check.ts";
import { assertDocumentedResponses } from "./response-check.ts";

export interface TestPlatform extends RunningPlatform {
  issuer: TestIssuer;
  /** the DASHBOARD_AUTH issuer of dashboard session tokens */
  dashboard: TestIssuer;
  /** fetch against the identity listener; `bearer` becomes `Authorization: Bearer …` */
  identity(path: string, init?: RequestInit & { bearer?: string; json?: unknown }): Promise<Response>;
  /** fetch against the platform listener; `agent` is an agent token, sent as x-platform-token */
  api(path: string, init?: RequestInit & { jwt?: string; pat?: string; agent?: string; json?: unknown }): Promise<Response>;
  /** REST answers that differed from their route's documented responses so far; `stop()` fails when there are any */
  responseMismatches: ResponseMismatch[];
  /** registers a user for a fresh subject, its primary EOA `account` (fresh by default) signing for it; returns its JWT and id */
  createUser(options?: { sub?: string; account?: PrivateKeyAccount; chain_id?: number }): Promise<{ jwt: string; id: string; address: string; account: PrivateKeyAccount; body: any }>;
}

/**
 * The whole platform on real listeners (loopback, free ports), on PGlite in memory or, in the
 * e2e-postgres project, on a fresh PostgreSQL database; with a real JWT issuer configured as
 * provider_a. `env` overrides configuration variables.
 */
export async function startTestPlatform(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestPlatform> {
  const issuer = await TestIssuer.start();
  const dashboard = await TestIssuer.start();
  const databaseUrl = await freshDatabaseUrl();
  const [port, graphqlPort, identityPort, rpcPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const config = loadConfig({
    DATA_DIR: "memory://",
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    PORT: String(port),
    GRAPHQL_PORT: String(graphqlPort),
    IDENTITY_PORT: String(identityPort),
    RPC_PORT: String(rpcPort),
    SAFE_DEPLOY_DELAY_MS: "0",
    AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
    DASHBOARD_AUTH: JSON.stringify([{ name: "dashboard", issuer: dashboard.issuer, jwks_uri: dashboard.jwksUri }]),
    LOG_LEVEL: "silent",
    // a loaded CI machine stalls the event loop now and then; load shedding has its own suite
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
    // the test issuers serve their JWKS over http on loopback (lib/auth/jwks-fetch.ts)
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
    // suites make many requests from one address and user; the rate-limit suite sets its own
    RATE_LIMITS: JSON.stringify({ user: { limit: 1_000_000 }, ip: { limit: 1_000_000 }, api_key: { limit: 1_000_000 }, auth_failure: { limit: 1_000_000 }, auth_failure_address: { limit: 1_000_000 } }),
    ...env,
  });
  const responseMismatches: ResponseMismatch[] = [];
  const problemUris = new Set<string>();
  const running = await startSingleProcess(config, {
    logger: createLogger(config.logLevel),
    checkResponses: (mismatch) => responseMismatches.push(mismatch),
    observeProblems: (problem) => {
      problemUris.add(problem.type);
      if (problem.documentation) problemUris.add(problem.documentation);
    },
    ...options,
  });
  const api: TestPlatform["api"] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.jwt) headers.set("x-platform-jwt", init.jwt);
    if (init.pat) headers.set("x-platform-pat", init.pat);
    if (init.agent) headers.set("x-platform-token", init.agent);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return fetch(running.urls.platform + path, { ...init, headers, ...(init.json !== undefined && { body: JSON.stringify(init.json) }) });
  };
  const identity: TestPlatform["identity"] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.bearer) headers.set("authorization", `Bearer ${init.bearer}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return fetch(running.urls.identity + path, { ...init, headers, ...(init.json !== undefined && { body: JSON.stringify(init.json) }) });
  };
  return {
    ...running,
    issuer,
    dashboard,
    api,
    identity,
    responseMismatches,
    async createUser(opts = {}) {
      const jwt = await issuer.sign({ sub: opts.sub ?? `sub-${Math.random().toString(36).slice(2)}` });
      const account = opts.account ?? newAccount();
      const response = await api("/v0/user/", { method: "POST", jwt, json: await registrationBody(jwt, { account, chain_id: opts.chain_id ?? 8453 }) });
      const body = await response.json();
      if (response.status !== 201) throw new Error(`createUser: ${response.status} ${JSON.stringify(body)}`);
      return { jwt, id: body.id, address: account.address, account, body };
    },
    async stop() {
      const broken = await unresolvedUris(problemUris);
      await running.stop();
      await issuer.stop();
      await dashboard.stop();
      assertDocumentedResponses(responseMismatches);
      if (broken.length > 0) throw new Error(`ProblemDetail URIs that do not answer 200: ${broken.join(", ")}`);
    },
  };
}

/** Every `type` and `documentation` URI a suite's errors carried must lead to a page (the docs and error pages). */
async function unresolvedUris(uris: Set<string>): Promise<string[]> {
  const broken: string[] = [];
  for (const uri of uris) {
    let response: Response | undefined;
    // a suite that sheds load on purpose may still be shedding: a 503 is asked again
    for (let attempt = 0; attempt < 5 && (response === undefined || response.status === 503); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      response = await fetch(uri).catch(() => undefined);
      await response?.arrayBuffer();
    }
    if (response?.status !== 200) broken.push(`${uri} (${response?.status ?? "no answer"})`);
  }
  return broken;
}
