import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startRoundRobin, type RoundRobin } from "../support/round-robin.ts";

// test/support/round-robin.ts with keepAlive (bench/replicas.ts's balancers), over real listeners
// on loopback: the replicas' connections are reused, requests alternate between them, and a
// replica that fails a request it was sent is a 502 while the next request goes to the other.

interface Upstream {
  name: string;
  server: Server;
  port: number;
  /** connections accepted */
  connections: number;
  /** requests answered */
  requests: number;
  /** answer no more requests: destroy the connection of the next one instead */
  failing: boolean;
}

const started: { upstreams: Upstream[]; balancer?: RoundRobin } = { upstreams: [] };

async function upstream(name: string): Promise<Upstream> {
  const state = { name, connections: 0, requests: 0, failing: false } as Upstream;
  state.server = createServer((request, response) => {
    request.resume().on("end", () => {
      if (state.failing) return request.socket.destroy();
      state.requests++;
      response.writeHead(200, { "content-type": "text/plain" }).end(name);
    });
  });
  state.server.on("connection", () => state.connections++);
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.port = (state.server.address() as AddressInfo).port;
  started.upstreams.push(state);
  return state;
}

async function balance(upstreams: Upstream[]): Promise<RoundRobin> {
  started.balancer = await startRoundRobin(upstreams.map((u) => u.port), { keepAlive: true });
  return started.balancer;
}

/** One request through the balancer; the client keeps no connection, so only the balancer's count. */
async function get(balancer: RoundRobin): Promise<{ status: number; body: string }> {
  const response = await fetch(`${balancer.url}/`, { headers: { connection: "close" } });
  return { status: response.status, body: await response.text() };
}

afterEach(async () => {
  await started.balancer?.close();
  for (const u of started.upstreams) {
    u.server.closeAllConnections();
    await new Promise((resolve) => u.server.close(resolve));
  }
  started.upstreams = [];
  started.balancer = undefined;
});

describe("the keep-alive round robin", () => {
  it("sends requests to each replica in turn, over the connections it opened before", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const balancer = await balance([a!, b!]);
    const bodies: string[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await get(balancer);
      expect(answer.status).toBe(200);
      bodies.push(answer.body);
    }
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? "a" : "b")));
    expect([a!.requests, b!.requests]).toEqual([10, 10]);
    // one request at a time: one connection to each replica, reused for the other nine
    expect([a!.connections, b!.connections]).toEqual([1, 1]);
  });

  it("keeps a connection per request in flight, and reuses them for the next ones", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const balancer = await balance([a!, b!]);
    for (let burst = 0; burst < 5; burst++) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => get(balancer)));
      expect(answers.map((x) => x.status)).toEqual(Array(8).fill(200));
    }
    expect([a!.requests, b!.requests]).toEqual([20, 20]);
    // four at once at each replica: four connections each, not one per request (20)
    expect(a!.connections).toBeLessThanOrEqual(4);
    expect(b!.connections).toBeLessThanOrEqual(4);
  });

  it("answers 502 when a replica fails a request it was sent, and sends the next request to the other", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const balancer = await balance([a!, b!]);
    // warm both connections first, so the failure comes on a reused one
    expect((await get(balancer)).body).toBe("a");
    expect((await get(balancer)).body).toBe("b");
    a!.failing = true;
    const failed = await get(balancer);
    expect(failed.status).toBe(502);
    expect(balancer.badGateway).toBe(1);
    const next = await get(balancer);
    expect(next).toEqual({ status: 200, body: "b" });
  });

  it("sends a request a dead replica's listener refuses to the other replica", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const balancer = await balance([a!, b!]);
    expect((await get(balancer)).body).toBe("a");
    // replica a dies: its listener and its connection to the balancer close
    a!.server.closeAllConnections();
    await new Promise((resolve) => a!.server.close(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(balancer));
    expect(answers).toEqual(Array(4).fill({ status: 200, body: "b" }));
    // the turns that were a's: its pooled connection was dropped when it closed, so each was refused and sent on
    expect(balancer.redirected).toBe(2);
    expect(balancer.badGateway).toBe(0);
  });
});
