import { afterAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../../support/postgres.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { onPostgres } from "../../support/test-database.ts";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe("GET /health", () => {
  it("answers 200 with the database up, on every listener", async () => {
    const platform = await startTestPlatform();
    stops.push(() => platform.stop());
    for (const url of [platform.urls.platform, platform.urls.identity, platform.urls.rpc]) {
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "ok", database: "ok" });
    }
  });

  it("takes no credential: whatever credential headers come along are not read", async () => {
    const platform = await startTestPlatform();
    stops.push(() => platform.stop());
    const response = await fetch(`${platform.urls.platform}/health`, { headers: { "x-platform-jwt": "expired.or.garbage", "x-platform-orgid": "malformed", "x-platform-token": "agent" } });
    expect(response.status).toBe(200);
  });

  it("answers 503 naming the one subgraph whose store is unavailable, while the others answer, and recovers", async () => {
    const platform = await startTestPlatform();
    stops.push(() => platform.stop());
    // the finance subgraph's schema goes away; every other store still answers
    await platform.database.exec(`ALTER SCHEMA "finance" RENAME TO "finance_away"`);
    for (const url of [platform.urls.platform, platform.urls.identity, platform.urls.rpc]) {
      const down = await fetch(`${url}/health`);
      expect(down.status).toBe(503);
      expect(down.headers.get("content-type")).toContain("application/problem+json");
      expect(await down.json()).toMatchObject({ status: 503, error_code: "GEN-503-001", detail: "Unavailable: finance database.", instance: "/health" });
    }
    // each subgraph answers for its own store on /graphql too
    const graphql = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ health { users { name status } finance { name status } identity { status } agents { status } } }" }),
    });
    expect((await graphql.json()).data.health).toEqual({
      users: { name: "users database", status: "ok" },
      finance: { name: "finance database", status: "unavailable" },
      identity: { status: "ok" },
      agents: { status: "ok" },
    });

    await platform.database.exec(`ALTER SCHEMA "finance_away" RENAME TO "finance"`);
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);
  });

  it("answers 503 naming the rate-limit store when it is PostgreSQL and unavailable; a memory store is not a check", async () => {
    const platform = await startTestPlatform({ RATE_LIMIT_STORE: "postgres" });
    stops.push(() => platform.stop());
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);
    await platform.database.exec(`ALTER SCHEMA "ratelimit" RENAME TO "ratelimit_away"`);
    const down = await fetch(`${platform.urls.platform}/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error_code: "GEN-503-001", detail: "Unavailable: rate-limit store." });
    await platform.database.exec(`ALTER SCHEMA "ratelimit_away" RENAME TO "ratelimit"`);
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);

    const memory = await startTestPlatform({ RATE_LIMIT_STORE: "memory" });
    stops.push(() => memory.stop());
    await memory.database.exec(`DROP SCHEMA IF EXISTS "ratelimit" CASCADE`);
    expect((await fetch(`${memory.urls.platform}/health`)).status).toBe(200);
  });

  // only a server database can go away; PGlite lives in the process
  it.skipIf(!onPostgres)("answers 503 with a ProblemDetail while PostgreSQL is down and recovers without a restart", async () => {
    const cluster: PostgresCluster = await startPostgresCluster();
    stops.push(() => cluster.destroy());
    const platform: TestPlatform = await startTestPlatform({ DATABASE_URL: cluster.adminUrl });
    stops.push(() => platform.stop());
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);

    await cluster.stop();
    const down = await fetch(`${platform.urls.platform}/health`);
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toContain("application/problem+json");
    // every store is on the stopped server: each check is named
    expect(await down.json()).toMatchObject({
      status: 503,
      error_code: "GEN-503-001",
      instance: "/health",
      detail: "Unavailable: users database, finance database, identity database, agents database, rate-limit store.",
    });

    await cluster.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${platform.urls.platform}/health`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
