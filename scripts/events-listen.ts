// npm run events:listen -- --org <org_id> --env <env_id> [--forward http://localhost:3000/hook] [--events user.created,…] [--port <n>] [--identity-url <sis_url>]
// Like `stripe listen` (issue 29): a loopback receiver for an organisation environment's outgoing
// events. It registers a webhook endpoint at itself (the identity host must allow loopback URLs:
// WEBHOOK_ALLOW_LOOPBACK, on in sandbox mode), prints each delivery once its signature verifies,
// forwards it unchanged (headers and body) to --forward and answers with that URL's status, so the
// platform retries what the local app refuses. On exit (Ctrl-C, SIGTERM) it deletes the endpoint.
// Credential: a dashboard session token of an owner or admin of the organisation, the one the
// webhook endpoint routes take, in PLATFORM_DASHBOARD_TOKEN (an environment variable, so it is not
// in the process list).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { verifyStandardWebhook } from "../lib/webhooks/standard-webhooks.ts";

const USAGE =
  "usage: PLATFORM_DASHBOARD_TOKEN=<owner or admin session> npm run events:listen -- --org <org_id> --env <env_id> [--forward <url>] [--events <type,…>|*] [--port <n>] [--identity-url <url>]";
/** The description marking an endpoint as this tool's: one left behind by a run that could not clean up is adopted, not duplicated. */
const MARK = "npm run events:listen";
/** Headers not forwarded: they describe this hop, not the delivery. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

type Endpoint = { id: string; url: string; description: string | null; secret?: string };

function options() {
  const { values } = parseArgs({
    options: { org: { type: "string" }, env: { type: "string" }, forward: { type: "string" }, events: { type: "string" }, port: { type: "string" }, "identity-url": { type: "string" } },
    strict: true,
  });
  const token = process.env.PLATFORM_DASHBOARD_TOKEN;
  if (!values.org || !values.env || !token) throw new Error(USAGE);
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error("--port must be a port number");
  if (values.forward !== undefined && !/^https?:\/\//.test(values.forward)) throw new Error("--forward must be an http(s) URL");
  const identityUrl = (values["identity-url"] ?? process.env.PUBLIC_IDENTITY_URL ?? "http://localhost:8081").replace(/\/+$/, "");
  const events = (values.events ?? "*").split(",").map((type) => type.trim()).filter(Boolean);
  return { org: values.org, env: values.env, forward: values.forward, events, port, identityUrl, token };
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

async function main(): Promise<void> {
  const o = options();
  const endpointsUrl = `${o.identityUrl}/v0/organisation/${encodeURIComponent(o.org)}/environments/${encodeURIComponent(o.env)}/webhook-endpoints`;
  async function identity(method: string, url: string, body?: unknown): Promise<any> {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${o.token}`, ...(body !== undefined && { "content-type": "application/json" }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  }

  let secret = "";
  const server = createServer((request, response) => void receive(request, response));
  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const header = (name: string) => (typeof request.headers[name] === "string" ? (request.headers[name] as string) : undefined);
    const id = header("webhook-id") ?? "(no webhook-id)";
    if (!secret || !verifyStandardWebhook(body, { "webhook-id": header("webhook-id"), "webhook-timestamp": header("webhook-timestamp"), "webhook-signature": header("webhook-signature") }, secret, new Date())) {
      console.log(`${new Date().toISOString()}  ${id}  signature not verified: refused (401), not forwarded`);
      response.writeHead(401).end();
      return;
    }
    let type = "?";
    try {
      type = (JSON.parse(body) as { type?: string }).type ?? "?";
    } catch {
      // a verified body is the platform's JSON; print it whatever it is
    }
    console.log(`${new Date().toISOString()}  ${type}  ${id}  verified\n${body}`);
    if (!o.forward) {
      response.writeHead(200).end();
      return;
    }
    try {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name, value]) => !HOP_HEADERS.has(name) && typeof value === "string")) as Record<string, string>;
      const forwarded = await fetch(o.forward, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(9_000) });
      const answer = await forwarded.text();
      console.log(`  → ${o.forward} answered ${forwarded.status}`);
      const retryAfter = forwarded.headers.get("retry-after");
      response.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "text/plain", ...(retryAfter !== null && { "retry-after": retryAfter }) }).end(answer);
    } catch (error) {
      // the platform retries a 502 per its schedule, as it would the local app's own failure
      console.log(`  → ${o.forward} unreachable (${(error as Error).message}): answered 502`);
      response.writeHead(502).end();
    }
  }

  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(o.port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  // adopt this tool's endpoint at the same URL (left by a run killed before it could delete it), else create one
  const { items } = (await identity("GET", endpointsUrl)) as { items: Endpoint[] };
  const left = items.find((endpoint) => endpoint.url === url && endpoint.description?.startsWith(MARK));
  let endpoint: Endpoint;
  if (left) {
    await identity("PATCH", `${endpointsUrl}/${left.id}`, { event_types: o.events, enabled: true });
    endpoint = await identity("POST", `${endpointsUrl}/${left.id}/rotate-secret`, { overlap_seconds: 0 });
  } else {
    endpoint = await identity("POST", endpointsUrl, { url, event_types: o.events, description: `${MARK} (pid ${process.pid})` });
  }
  secret = endpoint.secret!;

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    try {
      await identity("DELETE", `${endpointsUrl}/${endpoint.id}`);
      console.log(`${signal}: deleted endpoint ${endpoint.id}`);
    } catch (error) {
      console.error(`${signal}: could not delete endpoint ${endpoint.id}: ${(error as Error).message}`);
      process.exitCode = 1;
    }
    server.close();
    server.closeAllConnections();
  };
  process.once("SIGINT", () => void close("SIGINT"));
  process.once("SIGTERM", () => void close("SIGTERM"));

  console.log(
    `Ready: ${left ? "reusing" : "created"} endpoint ${endpoint.id} at ${url} for ${o.events.join(",")} of ${o.org}:${o.env}${o.forward ? `, forwarding to ${o.forward}` : ""}.\n` +
      `Signing secret (verify the forwarded deliveries with it): ${secret}`,
  );
}

main().catch((error: Error) => {
  console.error(`events:listen: ${error.message}`);
  process.exit(1);
});
