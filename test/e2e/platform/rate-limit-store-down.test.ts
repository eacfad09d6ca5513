import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// One failure policy for every surface (FailOpenRateLimiter): when the rate-limit store fails,
// the request goes through and a warning is logged. The store here is the PostgreSQL one (on
// PGlite, or on PostgreSQL in e2e-postgres) whose table is taken away while the rest of the
// database keeps working; the RPC host and the PINT exchange, which consume from the limiter
// directly, behave like every other surface.
const CHAIN = 920;
const ORG = "org_down";
const ENV = "env_down";
const BOOTSTRAP = JSON.stringify({ organisation: { id: ORG, name: "Down Ltd" }, environment: { id: ENV, name: "Dev" }, members: [{ sub: "down-owner" }] });

let node: Server;
let forwarded = 0;
let platform: TestPlatform;
let publicKey: string;
let serverKey: string;
const warnings: string[] = [];

async function mintKey(scopes: string[]): Promise<string> {
  const response = await platform.identity(`/v0/organisation/${ORG}/keys`, { method: "POST", bearer: await platform.dashboard.sign({ sub: "down-owner" }), json: { name: "k", env_id: ENV, scopes } });
  if (response.status !== 201) throw new Error(`mint: ${response.status} ${await response.text()}`);
  return (await response.json()).key;
}

const rpc = () =>
  fetch(`${platform.urls.rpc}/v0/rpc/${CHAIN}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${publicKey}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
  });
const exchange = () => platform.identity("/v0/idsvc/token/pint", { method: "POST", bearer: serverKey, json: {} });

beforeAll(async () => {
  node = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      forwarded++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(raw).id, result: "0x398" }));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  const sink = new Writable({ write: (chunk, _enc, done) => (warnings.push(String(chunk)), done()) });
  platform = await startTestPlatform(
    {
      RATE_LIMIT_STORE: "postgres",
      RATE_LIMITS: JSON.stringify({ rpc: { limit: 2 }, pint_exchange: { limit: 2 }, user: { limit: 1_000_000 }, ip: { limit: 1_000_000 }, api_key: { limit: 1_000_000 }, auth_failure: { limit: 1_000_000 } }),
      IDENTITY_BOOTSTRAP: BOOTSTRAP,
      CHAIN_RPC_URLS: JSON.stringify({ [CHAIN]: `http://127.0.0.1:${(node.address() as { port: number }).port}` }),
    },
    { logger: pino({ level: "warn" }, sink) },
  );
  publicKey = await mintKey(["rpc.invoke"]);
  serverKey = await mintKey(["idsvc.token_exchange"]);
});
afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => node?.close(resolve));
});

describe("with the rate-limit store down", () => {
  it("lets RPC calls and PINT exchanges through, logs a warning, and limits again once the store is back", async () => {
    await platform.database.exec(`ALTER TABLE ratelimit.buckets RENAME TO buckets_down`);
    try {
      // two calls per key by the rule: the first is counted in memory, the second must be checked
      // against the shared total, which the store cannot give, so it and the later ones pass
      for (let i = 0; i < 3; i++) {
        const response = await rpc();
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x398" });
      }
      expect(forwarded).toBe(3);
      // the exchange gets past its rate limit (step 1) to the body check (step 2), never a 500
      for (let i = 0; i < 3; i++) {
        const response = await exchange();
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error_code: "PINT-400-001" });
      }
      const logged = warnings.map((line) => JSON.parse(line)).filter((line) => line.msg === "rate-limit store failed; request allowed");
      expect(logged.length).toBeGreaterThanOrEqual(2);
      expect(logged.map((line) => line.rate_limit_key)).toEqual(expect.arrayContaining(["rpc:", "pint_exchange:"]));
      expect(logged.every((line) => line.level === 40)).toBe(true);
    } finally {
      await platform.database.exec(`ALTER TABLE ratelimit.buckets_down RENAME TO buckets`);
    }
    // after the store's back-off (1 s) the budgets apply again: the unit counted in memory was
    // kept, so one more is admitted and the next refused
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await rpc()).status).toBe(200);
    expect((await rpc()).status).toBe(429);
    expect((await exchange()).status).toBe(400);
    expect((await exchange()).status).toBe(429);
  });
});
