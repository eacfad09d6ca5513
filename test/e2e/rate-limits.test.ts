import { afterAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/platform.ts";
import { freshDatabaseUrl, onPostgres } from "../support/test-database.ts";

// One rate-limiting mechanism on every surface (spec 8): per user, per API key, per address for
// requests without a credential; 429 with Retry-After and the surface's ProblemDetail.
const LIMITS = JSON.stringify({ user: { limit: 3, window_seconds: 60 }, ip: { limit: 2, window_seconds: 60 }, api_key: { limit: 2, window_seconds: 60 } });
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

async function platformWith(env: Record<string, string> = {}): Promise<TestPlatform> {
  const platform = await startTestPlatform({ RATE_LIMITS: LIMITS, ...env });
  stops.push(() => platform.stop());
  return platform;
}

async function expect429(response: Response) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  const problem = await response.json();
  expect(problem).toMatchObject({ status: 429, error_code: "GEN-429-001" });
  return problem;
}

describe("rate limits", () => {
  it("count per user on the platform host (JWT), leaving other users alone", async () => {
    const platform = await platformWith();
    const { jwt } = await platform.createUser();
    // the registration counted for the subject, before the user existed; from now on the user counts
    for (let i = 0; i < 3; i++) expect((await platform.api("/v0/user/me", { jwt })).status).toBe(200);
    const problem = await expect429(await platform.api("/v0/user/me", { jwt }));
    expect(problem.type).toBe(`${platform.config.publicBaseUrl}/errors/gen-429-001`);
    const other = await platform.createUser();
    expect((await platform.api("/v0/user/me", { jwt: other.jwt })).status).toBe(200);
  });

  it("count requests without a credential per address, on REST and GraphQL alike", async () => {
    const platform = await platformWith();
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);
    expect((await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ health { status } }" }) })).status).toBe(200);
    await expect429(await fetch(`${platform.urls.platform}/health`));
  });

  it("count per API key on the identity host, answered in its error style", async () => {
    const platform = await platformWith({
      IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: "org_rl", name: "RL" }, environment: { id: "env_rl", name: "Dev" }, members: [{ sub: "rl-owner" }] }),
    });
    const owner = await platform.dashboard.sign({ sub: "rl-owner" });
    const { key } = await (await platform.identity("/v0/organisation/org_rl/keys", { method: "POST", bearer: owner, json: { name: "k", env_id: "env_rl", scopes: ["idsvc.lookup"] } })).json();
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
    const problem = await expect429(await platform.identity("/v0/idsvc/key", { bearer: key }));
    expect(problem).toMatchObject({ type: `${platform.config.docsUrl}/errors/too_many_requests`, documentation: `${platform.config.docsUrl}/errors/GEN-429-001` });
  });

  // instances share their budgets through PostgreSQL (RATE_LIMIT_STORE defaults to postgres with DATABASE_URL)
  it.skipIf(!onPostgres)("are shared by every instance on PostgreSQL", async () => {
    const databaseUrl = (await freshDatabaseUrl())!;
    const a = await platformWith({ DATABASE_URL: databaseUrl });
    const b = await platformWith({ DATABASE_URL: databaseUrl });
    expect(a.config.rateLimits.store).toBe("postgres");
    // the address bucket is spent across both instances
    expect((await fetch(`${a.urls.platform}/health`)).status).toBe(200);
    expect((await fetch(`${b.urls.platform}/health`)).status).toBe(200);
    await expect429(await fetch(`${b.urls.platform}/health`));
    await expect429(await fetch(`${a.urls.platform}/health`));
  });
});
