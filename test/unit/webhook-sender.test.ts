import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolve } from "../../lib/net/guarded-lookup.ts";
import { webhookSender } from "../../subgraphs/identity/webhook-delivery/send-webhook.ts";

// Issue 29: a delivery POSTs only where an endpoint's URL may point, checked again at connect.
const DEV = { allowLoopbackHttp: true, switchName: "WEBHOOK_ALLOW_LOOPBACK" };
const STRICT = { allowLoopbackHttp: false, switchName: "WEBHOOK_ALLOW_LOOPBACK" };

let server: Server;
let port = 0;
let received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ url: req.url!, headers: req.headers, body });
      if (req.url === "/ok") return res.end("thanks");
      if (req.url === "/redirect") return res.writeHead(307, { location: "/ok" }).end();
      if (req.url === "/busy") return res.writeHead(503, { "retry-after": "30" }).end("busy");
      if (req.url === "/nul") return res.writeHead(500).end("bad\0answer");
      if (req.url === "/big") return res.end("y".repeat(64 * 1024));
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 1_000);
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (url: string, options: Parameters<typeof webhookSender>[1] = {}, policy = DEV) => webhookSender(policy, options)(url, '{"a":1}', { "webhook-id": "evt_1", "content-type": "application/json" });

describe("webhookSender", () => {
  it("POSTs the body with the headers and answers the status and the answer's excerpt", async () => {
    received = [];
    expect(await send(`http://127.0.0.1:${port}/ok`)).toEqual({ status: 200, retry_after: null, excerpt: "thanks" });
    expect(received).toEqual([{ url: "/ok", headers: expect.objectContaining({ "webhook-id": "evt_1", "content-type": "application/json", "content-length": "7" }), body: '{"a":1}' }]);
  });

  it("follows no redirect, reads Retry-After, keeps only the first KiB (NUL replaced, as PostgreSQL text refuses it), and gives up at the timeout", async () => {
    received = [];
    expect(await send(`http://127.0.0.1:${port}/redirect`)).toMatchObject({ status: 307 });
    expect(received.map((r) => r.url)).toEqual(["/redirect"]);
    expect(await send(`http://127.0.0.1:${port}/busy`)).toEqual({ status: 503, retry_after: "30", excerpt: "busy" });
    expect(await send(`http://127.0.0.1:${port}/nul`)).toEqual({ status: 500, retry_after: null, excerpt: "bad\uFFFDanswer" });
    const big = await send(`http://127.0.0.1:${port}/big`);
    expect("excerpt" in big && big.excerpt.length).toBe(1024);
    expect(await send(`http://127.0.0.1:${port}/slow`, { timeoutMs: 100 })).toEqual({ error: "no answer within 100 ms" });
  });

  it("refuses a name resolving to a private address at connect, and loopback without the development switch", async () => {
    received = [];
    const privateName: Resolve = async () => [{ address: "10.0.0.7", family: 4 }];
    expect(await send("https://hooks.example.com/in", { resolve: privateName }, STRICT)).toEqual({ error: "hooks.example.com resolves to a non-public address (private)" });
    // a name that resolves to loopback is refused too unless loopback is allowed
    const loopbackName: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    expect(await send(`https://receiver.example.com:${port}/ok`, { resolve: loopbackName }, STRICT)).toMatchObject({ error: expect.stringContaining("non-public address (loopback)") });
    expect(await send(`http://127.0.0.1:${port}/ok`, {}, STRICT)).toEqual({ error: "the endpoint's url expected an https URL" });
    expect(await send(`http://receiver.localhost:${port}/ok`, { resolve: loopbackName })).toMatchObject({ status: 200 });
    expect(received.map((r) => r.url)).toEqual(["/ok"]);
  });
});
