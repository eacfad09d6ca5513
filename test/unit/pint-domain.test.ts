import { keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../lib/config-error.ts";
import { loadConfig } from "../../lib/config.ts";
import { loadPintDomainSalt } from "../../lib/pint-domain.ts";

describe("PINT_DOMAIN_SALT", () => {
  it("defaults to keccak256 of PUBLIC_IDENTITY_URL, so deployments at different addresses have different domains", () => {
    const one = loadConfig({ PUBLIC_IDENTITY_URL: "https://identity.one.example" }).pintDomainSalt;
    const two = loadConfig({ PUBLIC_IDENTITY_URL: "https://identity.two.example" }).pintDomainSalt;
    expect(one).toBe(keccak256(stringToHex("https://identity.one.example")));
    expect(two).not.toBe(one);
  });

  it("takes an explicit 32-byte salt, which wins over the address", () => {
    const salt = `0x${"ab".repeat(32)}` as const;
    expect(loadPintDomainSalt({ PINT_DOMAIN_SALT: salt.toUpperCase().replace("0X", "0x") }, "https://identity.one.example")).toBe(salt);
  });

  it.each(["0x1234", "ab".repeat(32), `0x${"zz".repeat(32)}`])("refuses %s naming the variable", (value) => {
    expect(() => loadPintDomainSalt({ PINT_DOMAIN_SALT: value }, "https://x.example")).toThrow(ConfigError);
    expect(() => loadPintDomainSalt({ PINT_DOMAIN_SALT: value }, "https://x.example")).toThrow(/PINT_DOMAIN_SALT/);
  });
});
