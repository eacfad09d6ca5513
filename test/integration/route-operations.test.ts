import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { compileValidator } from "../../lib/json-validation.ts";
import { compileRoute } from "../../rest-adapter/route-kit/app.ts";
import { identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";
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
  it("compiles as the adapter does on its first request: an operation valid against the public API, within /graphql's limits, and its validators", () => {
    const invalid = routes.flatMap((route) => {
      try {
        compileRoute(route, platform.gatewayClient);
        return [];
      } catch (error) {
        return [`${route.operationId}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
  });

  // compileRoute compiles every other schema; OpenAPI documents these too
  it("has body schemas that compile where the adapter leaves the body to the operation (validateBody: false)", () => {
    for (const route of routes) if (route.body && route.validateBody === false) compileValidator(route.body, "body");
    expect(routes.length).toBeGreaterThan(0);
  });
});
