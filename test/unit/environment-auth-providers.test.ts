import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { storedAuthProviders, validateAuthProviders } from "../../subgraphs/identity/environments/auth-providers.ts";

const PROVIDER_B = { name: "provider_b", issuer: "https://b.test", jwks_uri: "https://b.test/jwks.json", audience: "app" };

function itemOf(value: unknown) {
  try {
    validateAuthProviders(value);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("GEN-422-001");
    return (error as AppError).validation![0]!;
  }
  throw new Error("expected a validation error");
}

describe("an environment's auth_providers (rules of AUTH_PROVIDERS)", () => {
  it("accepts and normalises AUTH_PROVIDERS-shaped entries; siwe may leave out its keys", () => {
    expect(validateAuthProviders([{ ...PROVIDER_B, note: "dropped" }, { name: "siwe", issuer: "https://siwe.test" }])).toEqual([PROVIDER_B, { name: "siwe", issuer: "https://siwe.test" }]);
    expect(validateAuthProviders([])).toEqual([]);
  });

  it("reports the failing entry and field as a 422 item under body.auth_providers", () => {
    expect(itemOf([PROVIDER_B, { ...PROVIDER_B, issuer: "https://c.test", jwks_uri: "ftp://c.test" }])).toMatchObject({
      type: "value_error",
      loc: ["body", "auth_providers", 1, "jwks_uri"],
      msg: "Value error, expected an http(s) URL",
      input: "ftp://c.test",
    });
    expect(itemOf([{ name: "provider_a", issuer: "https://a.test" }])).toMatchObject({ loc: ["body", "auth_providers", 0], msg: "Value error, needs jwks_uri or public_key" });
    expect(itemOf([{ ...PROVIDER_B, name: "okta" }])).toMatchObject({ loc: ["body", "auth_providers", 0, "name"], input: "okta" });
    expect(itemOf("not a list")).toMatchObject({ loc: ["body", "auth_providers"] });
  });

  it("refuses two entries with one issuer: the issuer picks the provider", () => {
    expect(itemOf([PROVIDER_B, { name: "provider_a", issuer: PROVIDER_B.issuer, public_key: "pem" }])).toMatchObject({
      loc: ["body", "auth_providers", 1, "issuer"],
      msg: "Value error, issuer already used by auth_providers[0]",
    });
  });

  it("leaves out stored entries that no longer validate, and reports them", () => {
    const invalid: [number, string][] = [];
    expect(storedAuthProviders([PROVIDER_B, { name: "provider_a" }], (index, problem) => invalid.push([index, problem]))).toEqual([PROVIDER_B]);
    expect(invalid).toEqual([[1, "expected a non-empty string"]]);
    expect(storedAuthProviders(null)).toEqual([]);
  });
});
