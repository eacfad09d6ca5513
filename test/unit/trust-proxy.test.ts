import pino from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { ConfigError } from "../../lib/config-error.ts";
import { createHttpServer } from "../../lib/http.ts";
import { parseTrustProxy, type TrustProxy } from "../../lib/trust-proxy.ts";

describe("TRUST_PROXY parsing", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["FALSE", false],
    ["true", true],
    ["1", 1],
    ["2", 2],
    ["10.0.0.0/8", ["10.0.0.0/8"]],
    ["10.0.0.0/8, 192.0.2.7 ,::1,fd00::/8", ["10.0.0.0/8", "192.0.2.7", "::1", "fd00::/8"]],
    ["loopback,uniquelocal,linklocal", ["loopback", "uniquelocal", "linklocal"]],
  ] as const)("%j → %j", (raw, expected) => {
    expect(parseTrustProxy({ TRUST_PROXY: raw })).toEqual(expected);
  });

  it.each(["0", "33", "yes", "10.0.0.0/33", "::1/129", "300.1.1.1", "10.0.0.1/8/1", "10.0.0.0/x", "10.0.0.1,", "proxy.internal"])("refuses %j naming TRUST_PROXY", (raw) => {
    expect(() => parseTrustProxy({ TRUST_PROXY: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/);
  });

  it("is part of the configuration, trusting nobody by default", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
  });
});

describe("TRUST_PROXY on a listener", () => {
  async function clientAddress(trustProxy: TrustProxy | undefined, remoteAddress: string, forwardedFor?: string): Promise<string> {
    const app = createHttpServer(pino({ level: "silent" }), trustProxy === undefined ? {} : { trustProxy });
    app.get("/ip", async (request) => ({ ip: request.ip }));
    const response = await app.inject({ method: "GET", url: "/ip", remoteAddress, headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } });
    await app.close();
    return response.json().ip;
  }

  it("ignores X-Forwarded-For by default: a client cannot pick its own address", async () => {
    expect(await clientAddress(undefined, "198.51.100.9", "203.0.113.1")).toBe("198.51.100.9");
    expect(await clientAddress(false, "198.51.100.9", "203.0.113.1")).toBe("198.51.100.9");
  });

  it("takes the client from X-Forwarded-For only when the peer is a listed proxy", async () => {
    expect(await clientAddress(["10.0.0.0/8"], "10.1.2.3", "203.0.113.1")).toBe("203.0.113.1");
    expect(await clientAddress(["10.0.0.0/8"], "198.51.100.9", "203.0.113.1")).toBe("198.51.100.9");
    // a client-supplied entry in front of the proxy's own is not believed
    expect(await clientAddress(["10.0.0.0/8"], "10.1.2.3", "192.0.2.66, 203.0.113.1")).toBe("203.0.113.1");
  });

  it("trusts the n nearest hops for a hop count", async () => {
    expect(await clientAddress(1, "10.1.2.3", "192.0.2.66, 203.0.113.1")).toBe("203.0.113.1");
    expect(await clientAddress(2, "10.1.2.3", "192.0.2.66, 203.0.113.1")).toBe("192.0.2.66");
  });

  it("trusts every hop for true", async () => {
    expect(await clientAddress(true, "10.1.2.3", "192.0.2.66, 203.0.113.1")).toBe("192.0.2.66");
  });
});
