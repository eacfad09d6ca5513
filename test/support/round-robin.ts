import { Agent, request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { freePort } from "./net.ts";

// A load balancer in front of one tier's replicas for test/e2e/platform/replicas.test.ts, as small
// as the rule it keeps: requests go round robin over the replicas; a replica that refuses the
// connection (killed, restarting, or draining after SIGTERM: its listener is closed) has been sent
// nothing, so the same request goes to the next one, whatever its method. Once a request was sent,
// its outcome is unknown when the replica dies before answering: the client gets a plain-text 502 (or a reset
// when the answer had begun) and decides itself whether to retry (an idempotent request, or one
// with an Idempotency-Key). Each request opens its own connection by default: no pooled socket of
// a dead replica is reused. With `keepAlive` (bench/replicas.ts) each replica's connections stay
// open for the next requests, as a production balancer keeps them: opening one per request made
// the balancer the bottleneck of a throughput measurement. A request sent on a reused connection
// has been sent, so its failure is a 502 like any other after sending.

/** Hop-by-hop headers (RFC 9110 7.6.1) stay with their connection. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

export interface RoundRobin {
  /** http://127.0.0.1:<port> */
  url: string;
  /** requests sent on to another replica after one refused the connection */
  redirected: number;
  /** 502s answered: a replica failed after the request was sent, or every replica refused */
  badGateway: number;
  close(): Promise<void>;
}

function forwardHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** A request a replica answered, as it was sent to it. */
export interface Forwarded {
  /** index into the upstream ports */
  replica: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RoundRobinOptions {
  /** reuse connections to the replicas (an http.Agent with keepAlive per replica) instead of one per request */
  keepAlive?: boolean;
  /** told of each request once a replica answers it (test/e2e/platform/hive-gateway.test.ts replays one at the other replica) */
  onForward?: (forwarded: Forwarded) => void;
}

/** A round robin on a free loopback port over the replicas listening on `upstreamPorts`. */
export async function startRoundRobin(upstreamPorts: readonly number[], options: RoundRobinOptions = {}): Promise<RoundRobin> {
  let next = 0;
  const agents = options.keepAlive ? upstreamPorts.map(() => new Agent({ keepAlive: true })) : undefined;
  const stats = { redirected: 0, badGateway: 0 };
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const first = next++ % upstreamPorts.length;
      const badGateway = () => {
        stats.badGateway++;
        if (outgoing.headersSent) outgoing.destroy();
        // plain text, as load balancers answer it (Envoy's words): never mistaken for the service's own JSON
        else outgoing.writeHead(502, { "content-type": "text/plain" }).end("upstream connect error or disconnect/reset before headers");
      };
      const attempt = (tried: number) => {
        const replica = (first + tried) % upstreamPorts.length;
        let connected = false;
        const agent = agents?.[replica] ?? false;
        const headers = forwardHeaders(incoming.headers);
        const upstream = httpRequest({ host: "127.0.0.1", port: upstreamPorts[replica]!, method: incoming.method, path: incoming.url, headers, agent }, (answer) => {
          options.onForward?.({ replica, method: incoming.method ?? "GET", path: incoming.url ?? "/", headers, body });
          outgoing.writeHead(answer.statusCode ?? 502, forwardHeaders(answer.headers));
          answer.pipe(outgoing);
          answer.on("error", () => outgoing.destroy());
          answer.on("aborted", () => outgoing.destroy());
        });
        // a pooled socket is connected already: it emits no "connect"
        upstream.on("socket", (socket) => (socket.connecting ? socket.once("connect", () => (connected = true)) : (connected = true)));
        upstream.on("error", () => {
          if (!connected && tried + 1 < upstreamPorts.length) {
            stats.redirected++;
            attempt(tried + 1);
          } else badGateway();
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    get redirected() {
      return stats.redirected;
    },
    get badGateway() {
      return stats.badGateway;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const agent of agents ?? []) agent.destroy();
        server.close(() => resolve());
      }),
  };
}
