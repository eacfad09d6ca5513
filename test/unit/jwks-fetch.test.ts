import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJwks, JwksFetchError, jwksUriProblem, STRICT_JWKS_POLICY, type Resolve } from "../../lib/auth/jwks-fetch.ts";
import { loadConfig } from "../../lib/config.ts";

const DEV = { allowLoopbackHttp: true };
const JWKS = { keys: [{ kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", kid: "k1" }] };

let server: Server;
let base = "";
let connections = 0;

/** A JWKS host on loopback with one path per behaviour under test. */
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/jwks.json") return res.setHeader("content-type", "application/json").end(JSON.stringify(JWKS));
    if (req.url === "/redirect") return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    if (req.url === "/big") return res.end(JSON.stringify({ keys: [], padding: "x".repeat(70 * 1024) }));
    if (req.url === "/big-chunked") {
      res.write("{\"keys\": [], \"padding\": \"");
      for (let i = 0; i < 80; i++) res.write("x".repeat(1024));
      return res.end("\"}");
    }
    if (req.url === "/slow") return setTimeout(() => res.end(JSON.stringify(JWKS)), 2_000);
    if (req.url === "/html") return res.end("<html>not keys</html>");
    if (req.url === "/no-keys") return res.end(JSON.stringify({ issuer: "x" }));
    res.writeHead(404).end();
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => {
      throw new Error("expected the fetch to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JwksFetchError);
  return (error as Error).message;
}

describe("fetchJwks: an organisation's jwks_uri cannot reach the platform's network", () => {
  it("refuses loopback, link-local, private and plain-http targets without connecting", async () => {
    const before = connections;
    const port = new URL(base).port;
    for (const uri of [
      `${base}/jwks.json`,
      `https://127.0.0.1:${port}/jwks.json`,
      `https://localhost:${port}/jwks.json`,
      `https://[::ffff:127.0.0.1]:${port}/jwks.json`,
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/jwks.json",
      "http://issuer.example.com/jwks.json",
    ])
      expect(await refusal(fetchJwks(uri, STRICT_JWKS_POLICY))).toMatch(/jwks_uri (must not point|expected an https URL)/);
    expect(connections).toBe(before);
  });

  it("checks every address a name resolves to, and connects to the address it checked", async () => {
    const port = new URL(base).port;
    const rebinding: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const before = connections;
    // a public-looking name that resolves to loopback (or to several addresses, one of them private) is refused at connect time
    expect(await refusal(fetchJwks(`https://jwks.example.test:${port}/jwks.json`, STRICT_JWKS_POLICY, { resolve: rebinding }))).toMatch(/resolves to a non-public address \(loopback\)/);
    const mixed: Resolve = async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }];
    expect(await refusal(fetchJwks("https://jwks.example.test/jwks.json", STRICT_JWKS_POLICY, { resolve: mixed }))).toMatch(/resolves to a non-public address \(private\)/);
    expect(connections).toBe(before);
    // with loopback allowed, the name (unknown to real DNS) reaches the server through the checked answer
    await expect(fetchJwks(`http://localhost:${port}/jwks.json`, DEV, { resolve: rebinding })).resolves.toEqual(JWKS);
  });

  it("under the development switch fetches from loopback, and still refuses internal networks", async () => {
    await expect(fetchJwks(`${base}/jwks.json`, DEV)).resolves.toEqual(JWKS);
    expect(await refusal(fetchJwks("http://169.254.169.254/latest/meta-data", DEV))).toMatch(/loopback addresses only/);
    expect(await refusal(fetchJwks("https://192.168.0.1/jwks.json", DEV))).toMatch(/must not point at a non-public address \(private\)/);
  });

  it("does not follow redirects", async () => {
    expect(await refusal(fetchJwks(`${base}/redirect`, DEV))).toMatch(/answered 302/);
  });

  it("stops reading past 64 KiB, with or without a content-length", async () => {
    expect(await refusal(fetchJwks(`${base}/big`, DEV))).toMatch(/larger than 65536 bytes/);
    expect(await refusal(fetchJwks(`${base}/big-chunked`, DEV))).toMatch(/larger than 65536 bytes/);
  });

  it("gives up after its time limit", async () => {
    const started = Date.now();
    expect(await refusal(fetchJwks(`${base}/slow`, DEV, { timeoutMs: 200 }))).toMatch(/longer than 200 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("accepts only a JSON key set", async () => {
    expect(await refusal(fetchJwks(`${base}/html`, DEV))).toMatch(/not JSON/);
    expect(await refusal(fetchJwks(`${base}/no-keys`, DEV))).toMatch(/no keys array/);
    expect(await refusal(fetchJwks(`${base}/missing`, DEV))).toMatch(/answered 404/);
  });

  it("jwksUriProblem reads the URL the way the fetch will (integer and hex spellings of loopback too)", () => {
    expect(jwksUriProblem("https://issuer.example.com/.well-known/jwks.json", STRICT_JWKS_POLICY)).toBeUndefined();
    expect(jwksUriProblem("https://0x7f000001/jwks.json", STRICT_JWKS_POLICY)).toBe("must not point at a non-public address (loopback)");
    expect(jwksUriProblem("https://[fd00::1]/jwks.json", STRICT_JWKS_POLICY)).toBe("must not point at a non-public address (unique-local)");
    expect(jwksUriProblem("https://100.64.1.1/jwks.json", STRICT_JWKS_POLICY)).toBe("must not point at a non-public address (shared)");
    expect(jwksUriProblem("https://224.0.0.1/jwks.json", STRICT_JWKS_POLICY)).toBe("must not point at a non-public address (multicast)");
    expect(jwksUriProblem("https://0.0.0.0/jwks.json", STRICT_JWKS_POLICY)).toBe("must not point at a non-public address (unspecified)");
    expect(jwksUriProblem("ftp://issuer.example.com/jwks.json", STRICT_JWKS_POLICY)).toBe("expected an https URL");
  });
});

describe("JWKS_ALLOW_LOOPBACK_HTTP", () => {
  const local = JSON.stringify([{ name: "provider_a", issuer: "https://local.test", jwks_uri: "http://127.0.0.1:9999/jwks.json" }]);

  it("is off by default: operator-configured providers follow the same rules as an organisation's", () => {
    expect(() => loadConfig({ AUTH_PROVIDERS: local })).toThrow(/AUTH_PROVIDERS\[0\]\.jwks_uri: expected an https URL/);
    expect(() => loadConfig({ DASHBOARD_AUTH: JSON.stringify([{ name: "d", issuer: "https://d.test", jwks_uri: "https://169.254.169.254/" }]) })).toThrow(
      /DASHBOARD_AUTH\[0\]\.jwks_uri: must not point at a non-public address \(link-local\)/,
    );
    expect(loadConfig({}).jwksPolicy).toEqual(STRICT_JWKS_POLICY);
  });

  it("admits loopback http when set, and is refused in production", () => {
    expect(loadConfig({ AUTH_PROVIDERS: local, JWKS_ALLOW_LOOPBACK_HTTP: "true" }).jwksPolicy).toEqual(DEV);
    expect(() => loadConfig({ NODE_ENV: "production", JWKS_ALLOW_LOOPBACK_HTTP: "true" })).toThrow(/JWKS_ALLOW_LOOPBACK_HTTP: is a development switch/);
  });
});
