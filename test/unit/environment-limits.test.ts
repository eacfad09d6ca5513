import { describe, expect, it } from "vitest";
import { ConfigError } from "../../lib/config-error.ts";
import { DEFAULT_ENVIRONMENT_LIMITS, limitFor, loadEnvironmentLimits } from "../../lib/environment-limits.ts";

describe("ENVIRONMENT_LIMITS", () => {
  it("defaults: organisation environments 100/100, the default environment 1000/1000", () => {
    const limits = loadEnvironmentLimits({});
    expect(limits).toEqual(DEFAULT_ENVIRONMENT_LIMITS);
    expect(limitFor(limits, "org_1:env_1")).toEqual({ users_per_hour: 100, safe_deployments_per_day: 100 });
    expect(limitFor(limits, "default")).toEqual({ users_per_hour: 1000, safe_deployments_per_day: 1000 });
    expect(limits.organisations).toEqual({ users_per_hour: 1000, safe_deployments_per_day: 500 });
  });

  it("takes the ceiling of all organisation environments together, field by field", () => {
    const limits = loadEnvironmentLimits({ ENVIRONMENT_LIMITS: JSON.stringify({ organisations: { users_per_hour: 50 } }) });
    expect(limits.organisations).toEqual({ users_per_hour: 50, safe_deployments_per_day: 500 });
    expect(limitFor(limits, "org_1:env_1")).toEqual({ users_per_hour: 100, safe_deployments_per_day: 100 });
  });

  it("takes base numbers, per-environment overrides and null for no limit", () => {
    const limits = loadEnvironmentLimits({
      ENVIRONMENT_LIMITS: JSON.stringify({ users_per_hour: 5, overrides: { "org_1:env_1": { safe_deployments_per_day: null }, default: { users_per_hour: 7 } } }),
    });
    expect(limitFor(limits, "org_2:env_2")).toEqual({ users_per_hour: 5, safe_deployments_per_day: 100 });
    expect(limitFor(limits, "org_1:env_1")).toEqual({ users_per_hour: 5, safe_deployments_per_day: null });
    expect(limitFor(limits, "default")).toEqual({ users_per_hour: 7, safe_deployments_per_day: 1000 });
  });

  it.each([
    ["not json", /expected JSON/],
    ["[]", /expected a JSON object/],
    ['{"users_per_hour": 0}', /users_per_hour: expected a positive integer or null/],
    ['{"users_per_hour": 1.5}', /positive integer/],
    ['{"users_per_day": 1}', /unknown field "users_per_day"/],
    ['{"overrides": []}', /overrides: expected an object/],
    ['{"organisations": {"users_per_hour": -1}}', /organisations\.users_per_hour: expected a positive integer or null/],
    ['{"overrides": {"default": {"safe_deployments_per_day": "10"}}}', /overrides\.default\.safe_deployments_per_day/],
  ])("refuses %s naming the variable", (raw, problem) => {
    let error: unknown;
    try {
      loadEnvironmentLimits({ ENVIRONMENT_LIMITS: raw });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe("ENVIRONMENT_LIMITS");
    expect((error as ConfigError).message).toMatch(problem);
  });
});
