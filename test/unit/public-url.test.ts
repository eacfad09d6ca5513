import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { publicHttpsUrlProblem } from "../../lib/net/public-url.ts";

// Where the platform connects on an organisation's say-so (lib/net/public-url.ts): webhook URLs
// under WEBHOOK_ALLOW_LOOPBACK; jwks_uri's rules are the same (jwks-fetch.test.ts).

const STRICT = { allowLoopbackHttp: false, switchName: "WEBHOOK_ALLOW_LOOPBACK" };
const DEV = { allowLoopbackHttp: true, switchName: "WEBHOOK_ALLOW_LOOPBACK" };

describe("publicHttpsUrlProblem", () => {
  it("admits https to a public host or address, and refuses anything else on its face", () => {
    expect(publicHttpsUrlProblem("https://hooks.example.com/platform", STRICT)).toBeUndefined();
    expect(publicHttpsUrlProblem("https://93.184.215.14/hook", STRICT)).toBeUndefined();
    expect(publicHttpsUrlProblem("http://hooks.example.com/platform", STRICT)).toBe("expected an https URL");
    expect(publicHttpsUrlProblem("not a url", STRICT)).toBe("expected an https URL");
    expect(publicHttpsUrlProblem("https://user:pass@hooks.example.com/", STRICT)).toBe("must not carry credentials");
    expect(publicHttpsUrlProblem("https://10.0.0.1/hook", STRICT)).toBe("must not point at a non-public address (private)");
    expect(publicHttpsUrlProblem("https://169.254.169.254/latest", STRICT)).toBe("must not point at a non-public address (link-local)");
    expect(publicHttpsUrlProblem("https://127.0.0.1/hook", STRICT)).toBe("must not point at a non-public address (loopback)");
    expect(publicHttpsUrlProblem("https://localhost/hook", STRICT)).toBe("must not point at a non-public address (loopback)");
  });

  it("admits loopback over http or https with the switch on, names the switch for http elsewhere, and still refuses private addresses", () => {
    expect(publicHttpsUrlProblem("http://127.0.0.1:3000/hook", DEV)).toBeUndefined();
    expect(publicHttpsUrlProblem("http://localhost:3000/hook", DEV)).toBeUndefined();
    expect(publicHttpsUrlProblem("https://[::1]:3000/hook", DEV)).toBeUndefined();
    expect(publicHttpsUrlProblem("http://hooks.example.com/hook", DEV)).toBe("http is allowed for loopback addresses only (WEBHOOK_ALLOW_LOOPBACK)");
    expect(publicHttpsUrlProblem("https://10.0.0.1/hook", DEV)).toBe("must not point at a non-public address (private)");
  });
});

describe("WEBHOOK_ALLOW_LOOPBACK", () => {
  it("is on in sandbox mode and off outside it or in production, unless set", () => {
    expect(loadConfig({}).webhookUrlPolicy).toEqual(DEV);
    expect(loadConfig({ SANDBOX: "false", SAFE_DEPLOYER: "chain", SAFE_DEPLOYER_KEY: `0x${"11".repeat(32)}` }).webhookUrlPolicy).toEqual(STRICT);
    expect(loadConfig({ NODE_ENV: "production", SANDBOX: "true" }).webhookUrlPolicy).toEqual(STRICT);
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: "false" }).webhookUrlPolicy).toEqual(STRICT);
  });

  it("is refused in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production", WEBHOOK_ALLOW_LOOPBACK: "true" })).toThrow(/WEBHOOK_ALLOW_LOOPBACK: is a development switch/);
  });
});
