import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { compileValidator } from "../../lib/json-validation.ts";
import { identityRoutes } from "../../rest-adapter/identity.ts";
import { platformRoutes } from "../../rest-adapter/platform.ts";
import { startSingleProcess, type RunningPlatform } from "../../server/single-process.ts";

// The adapter prepares a route's operation and validators on its first request (start-up time,
// issue 15), so what start-up used to check for every route is checked here, before it ships.
let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startSingleProcess(loadConfig({ DATA_DIR: "memory://", LOG_LEVEL: "silent" }), { listen: false });
});

afterAll(async () => {
  await platform?.stop();
});

describe.each([
  ["platform", platformRoutes],
  ["identity", identityRoutes],
])("every %s route", (_listener, routes) => {
  it("has an operation valid against the public API, within /graphql's limits", () => {
    const invalid = routes.flatMap((route) => {
      try {
        platform.gatewayClient.prepare(route.operation);
        return [];
      } catch (error) {
        return [`${route.operationId}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
  });

  it("has path, query and body schemas that compile", () => {
    for (const route of routes) {
      if (route.params) compileValidator(route.params, "path");
      if (route.query) compileValidator(route.query, "query");
      if (route.body) compileValidator(route.body, "body");
    }
    expect(routes.length).toBeGreaterThan(0);
  });
});
