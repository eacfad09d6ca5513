import type { TestIssuer } from "../test/support/jwt-issuer.ts";
import { freePort } from "../test/support/net.ts";

// The environment every server the bench starts runs with (bench/run.ts, bench/workers.ts).

/** The caller's environment without its DATABASE_URL: each run says its own. */
export function baseEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return env;
}

export async function freePorts() {
  return { PORT: await freePort(), GRAPHQL_PORT: await freePort(), IDENTITY_PORT: await freePort(), RPC_PORT: await freePort() };
}

export function portsEnv(ports: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)]));
}

/** What a loaded server needs: the bench's issuer trusted, and no limiter or sandbox delay in the way. */
export function benchPlatformEnv(issuer: TestIssuer): Record<string, string> {
  return {
    SAFE_DEPLOY_DELAY_MS: "0",
    // one user and one address make every request here: measure the path, not the limiter's refusals
    RATE_LIMITS: JSON.stringify({ user: { limit: 100_000_000 }, ip: { limit: 100_000_000 } }),
    AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
    // the bench's issuer serves its JWKS over http on loopback
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
  };
}
