import { describe, expect, it } from "vitest";
import { DEFAULT_ENVIRONMENT_ID, environmentId, orgEnvironmentOf, parseOrgId } from "../../lib/auth/orgid.ts";
import { AppError } from "../../lib/errors/app-error.ts";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : "not an AppError";
  }
  return undefined;
}

describe("parseOrgId (x-platform-orgid, spec 5.1.6)", () => {
  it("is null when the header is absent: the default environment", () => {
    expect(parseOrgId(undefined)).toBeNull();
  });

  it("splits <org-id>:<env-id>", () => {
    expect(parseOrgId("acme:prod")).toEqual({ org_id: "acme", env_id: "prod" });
    expect(parseOrgId("org_01HX:env_01HY")).toEqual({ org_id: "org_01HX", env_id: "env_01HY" });
  });

  it.each(["", "abc", ":env", "org:", ":", "a:b:c", "org::env", "::", " org:env", "org:env ", "org :env"])("refuses %j with 401 USR-401-002", (value) => {
    expect(codeOf(() => parseOrgId(value))).toBe("USR-401-002");
    let error: AppError | undefined;
    try {
      parseOrgId(value);
    } catch (e) {
      error = e as AppError;
    }
    expect(error).toMatchObject({ status: 401, title: "Invalid Org ID Format" });
  });
});

describe("environmentId", () => {
  it("is the default environment without a header and <org>:<env> with one", () => {
    expect(environmentId(null)).toBe(DEFAULT_ENVIRONMENT_ID);
    expect(DEFAULT_ENVIRONMENT_ID).toBe("default");
    expect(environmentId({ org_id: "acme", env_id: "prod" })).toBe("acme:prod");
    expect(environmentId(parseOrgId("a:b"))).toBe("a:b");
  });
});

describe("orgEnvironmentOf", () => {
  it("reads back what environmentId writes, and gives no organisation for the default environment or a malformed id", () => {
    expect(orgEnvironmentOf(environmentId({ org_id: "acme", env_id: "prod" }))).toEqual({ org_id: "acme", env_id: "prod" });
    for (const id of [DEFAULT_ENVIRONMENT_ID, ":prod", "acme:", ""]) expect(orgEnvironmentOf(id)).toBeNull();
  });
});
