import { describe, expect, it } from "vitest";
import { loadBalanceConfig } from "../../lib/balance-config.ts";
import { ConfigError } from "../../lib/config-error.ts";
import { totalValueUsd } from "../../subgraphs/finance/accounts/account-view.ts";
import { sumDecimals, valueUsd } from "../../lib/decimal.ts";

// Issue 9, assets and balances: USD values are exact decimal arithmetic, never floats.

describe("valueUsd", () => {
  it("multiplies base units by the price and divides by 10^decimals, exactly", () => {
    expect(valueUsd("25500000", 6, "1.00")).toBe("25.5");
    expect(valueUsd("100000000000000000", 18, "3000.00")).toBe("300");
    expect(valueUsd("1", 18, "3000.12345678")).toBe("0.00000000000000300012345678");
    expect(valueUsd("1050", 2, "1.08")).toBe("11.34");
    expect(valueUsd("0", 6, "1.00")).toBe("0");
  });

  it("keeps digits a float would lose", () => {
    // 0.1 + 0.2 style: 10^-6 USDC × 3 at 0.1 is 0.0000003 exactly
    expect(valueUsd("3", 6, "0.1")).toBe("0.0000003");
    // beyond 2^53 base units
    expect(valueUsd("123456789012345678901234567890", 18, "2999.99")).toBe("370369132469146.9132469146913243211");
  });

  it("refuses anything that is not a whole number of base units or a decimal price", () => {
    expect(() => valueUsd("1.5", 6, "1")).toThrow(RangeError);
    expect(() => valueUsd("1e6", 6, "1")).toThrow(RangeError);
    expect(() => valueUsd("1", 6, "1.2e3")).toThrow(RangeError);
  });
});

describe("sumDecimals and totalValueUsd", () => {
  it("adds decimal strings of any scale exactly", () => {
    expect(sumDecimals(["0.1", "0.2"])).toBe("0.3");
    expect(sumDecimals(["25.5", "300", "0.00000000000000300012345678"])).toBe("325.50000000000000300012345678");
    expect(sumDecimals(["-1.5", "1.5"])).toBe("0");
    expect(sumDecimals([])).toBe("0");
  });

  it("counts unpriced balances (null) for nothing", () => {
    expect(totalValueUsd(["11.34", null, "0.66"])).toBe("12");
    expect(totalValueUsd([null])).toBe("0");
  });
});

describe("BALANCE_SOURCE and BALANCE_CACHE_SECONDS", () => {
  const rpc = { 8453: "http://127.0.0.1:8545" };

  it("defaults to the ledger with a 15 second chain cache", () => {
    expect(loadBalanceConfig({}, {})).toEqual({ source: "ledger", cacheTtlMs: 15_000 });
    expect(loadBalanceConfig({ BALANCE_SOURCE: "chain", BALANCE_CACHE_SECONDS: "0" }, rpc)).toEqual({ source: "chain", cacheTtlMs: 0 });
  });

  it("names the variable on a bad value", () => {
    const error = (env: Record<string, string>, chains: Record<number, string> = rpc) => {
      try {
        loadBalanceConfig(env, chains);
      } catch (caught) {
        return caught;
      }
      return undefined;
    };
    expect(error({ BALANCE_SOURCE: "bank" })).toBeInstanceOf(ConfigError);
    expect(String(error({ BALANCE_SOURCE: "bank" }))).toContain("BALANCE_SOURCE");
    expect(String(error({ BALANCE_SOURCE: "chain" }, {}))).toContain("CHAIN_RPC_URLS");
    expect(String(error({ BALANCE_CACHE_SECONDS: "1.5" }))).toContain("BALANCE_CACHE_SECONDS");
    expect(String(error({ BALANCE_CACHE_SECONDS: "-1" }))).toContain("BALANCE_CACHE_SECONDS");
  });
});
