import { afterAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres.ts";
import { startTestPlatform, type TestPlatform } from "../support/platform.ts";
import { onPostgres } from "../support/test-database.ts";

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
    expect(await down.json()).toMatchObject({ status: 503, error_code: "GEN-503-001", instance: "/health" });

    await cluster.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${platform.urls.platform}/health`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
