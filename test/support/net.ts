import { createServer } from "node:net";

// Below Linux's ephemeral range (32768-60999): neither outgoing connections nor listen(0) in
// another test worker can take a port from here between this check and the caller's listen.
const FIRST_PORT = 20_000;
const PORTS = 12_000;
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A TCP port free on loopback right now, never handed out twice by this worker. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * PORTS);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("no free port found below the ephemeral range");
}

export function randomAddress(): string {
  return `0x${Array.from({ length: 40 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("")}`;
}
