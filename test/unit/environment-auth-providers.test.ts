import { describe, expect, it } from "vitest";
import { STRICT_JWKS_POLICY } from "../../lib/auth/jwks-fetch.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { storedAuthProviders, validateAuthProviders } from "../../subgraphs/identity/environments/auth-providers.ts";

const PROVIDER_B = { name: "provider_b", issuer: "https://b.test", jwks_uri: "https://b.test/jwks.json", audience: "app" };

const DEV_POLICY = { allowLoopbackHttp: true };

function itemOf(value: unknown, policy = STRICT_JWKS_POLICY) {
  try {
    validateAuthProviders(value, policy);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("GEN-422-001");
    return (error as AppError).validation![0]!;
  }
  throw new Error("expected a validation error");
}

describe("an environment's auth_providers (rules of AUTH_PROVIDERS)", () => {
  it("accepts and normalises AUTH_PROVIDERS-shaped entries; siwe may leave out its keys", () => {
    expect(validateAuthProviders([{ ...PROVIDER_B, note: "dropped" }, { name: "siwe", issuer: "https://siwe.test" }], STRICT_JWKS_POLICY)).toEqual([PROVIDER_B, { name: "siwe", issuer: "https://siwe.test" }]);
    expect(validateAuthProviders([], STRICT_JWKS_POLICY)).toEqual([]);
  });

  it("reports the failing entry and field as a 422 item under auth_providers", () => {
    expect(itemOf([PROVIDER_B, { ...PROVIDER_B, issuer: "https://c.test", jwks_uri: "ftp://c.test" }])).toMatchObject({
      type: "value_error",
      loc: ["auth_providers", 1, "jwks_uri"],
      msg: "Value error, expected an https URL",
      input: "ftp://c.test",
    });
    expect(itemOf([{ name: "provider_a", issuer: "https://a.test" }])).toMatchObject({ loc: ["auth_providers", 0], msg: "Value error, needs jwks_uri or public_key" });
    expect(itemOf([{ ...PROVIDER_B, name: "okta" }])).toMatchObject({ loc: ["auth_providers", 0, "name"], input: "okta" });
    expect(itemOf("not a list")).toMatchObject({ loc: ["auth_providers"] });
  });

  it("refuses two entries with one issuer: the issuer picks the provider", () => {
    expect(itemOf([PROVIDER_B, { name: "provider_a", issuer: PROVIDER_B.issuer, public_key: "pem" }])).toMatchObject({
      loc: ["auth_providers", 1, "issuer"],
      msg: "Value error, issuer already used by auth_providers[0]",
    });
  });

  it("leaves out stored entries that no longer validate, and reports them", () => {
    const invalid: [number, string][] = [];
    expect(storedAuthProviders([PROVIDER_B, { name: "provider_a" }], STRICT_JWKS_POLICY, (index, problem) => invalid.push([index, problem]))).toEqual([PROVIDER_B]);
    expect(invalid).toEqual([[1, "expected a non-empty string"]]);
    expect(storedAuthProviders(null, STRICT_JWKS_POLICY)).toEqual([]);
  });

  it.each([
    ["loopback", "https://127.0.0.1/jwks.json", "must not point at a non-public address (loopback)"],
    ["loopback IPv6", "https://[::1]/jwks.json", "must not point at a non-public address (loopback)"],
    ["localhost", "https://localhost:8443/jwks.json", "must not point at a non-public address (loopback)"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data", "must not point at a non-public address (link-local)"],
    ["a private network", "https://10.1.2.3/jwks.json", "must not point at a non-public address (private)"],
    ["an IPv4-mapped private address", "https://[::ffff:192.168.1.1]/jwks.json", "must not point at a non-public address (private)"],
    ["an integer spelling of loopback", "https://2130706433/jwks.json", "must not point at a non-public address (loopback)"],
    ["plain http to a public host", "http://issuer.example.com/jwks.json", "expected an https URL"],
    ["credentials in the URL", "https://user:pw@issuer.example.com/jwks.json", "must not carry credentials"],
  ])("refuses a jwks_uri pointing at %s with a 422 item", (_, jwks_uri, msg) => {
    expect(itemOf([{ ...PROVIDER_B, jwks_uri }])).toMatchObject({ loc: ["auth_providers", 0, "jwks_uri"], msg: `Value error, ${msg}`, input: jwks_uri });
  });

  it("admits loopback (http too) only under the development switch, and never internal networks", () => {
    const local = { ...PROVIDER_B, jwks_uri: "http://127.0.0.1:8080/jwks.json" };
    expect(validateAuthProviders([local], DEV_POLICY)).toEqual([local]);
    expect(itemOf([local])).toMatchObject({ msg: "Value error, expected an https URL" });
    expect(itemOf([{ ...PROVIDER_B, jwks_uri: "http://169.254.169.254/" }], DEV_POLICY)).toMatchObject({ msg: expect.stringMatching(/loopback addresses only/) });
    expect(itemOf([{ ...PROVIDER_B, jwks_uri: "https://10.0.0.1/" }], DEV_POLICY)).toMatchObject({ msg: "Value error, must not point at a non-public address (private)" });
  });

  it("drops stored entries whose jwks_uri the policy no longer admits", () => {
    const local = { ...PROVIDER_B, jwks_uri: "http://127.0.0.1:8080/jwks.json" };
    expect(storedAuthProviders([local], DEV_POLICY)).toEqual([local]);
    expect(storedAuthProviders([local], STRICT_JWKS_POLICY)).toEqual([]);
  });
});
