import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORG, startBootstrappedIdentity } from "../../support/identity.ts";
import { freePort } from "../../support/net.ts";
import type { TestPlatform } from "../../support/platform.ts";

// Issue 29, sandbox: `npm run events:listen` run as its own process against an in-process
// platform. It registers an endpoint at its loopback listener, verifies and prints each delivery,
// forwards it unchanged to --forward and answers that URL's status; on exit it deletes the endpoint.
const ROOT = join(import.meta.dirname, "..", "..", "..");
let platform: TestPlatform;
let owner: string;
let envId = "";
let target: Server;
let targetUrl = "";
/** what the local app (--forward) answers next */
const answers: number[] = [];
const forwarded: { headers: IncomingHttpHeaders; body: string }[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      forwarded.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 200).end("local app");
    });
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/hook`;
  ({ platform, owner } = await startBootstrappedIdentity());
  envId = (await (await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Listen" } })).json()).id;
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await platform?.stop();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

/** The CLI as `npm run events:listen` runs it (tsx), resolved once it prints its secret. */
async function listen(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/events-listen.ts", "--org", ORG, "--env", envId, "--identity-url", platform.urls.identity, ...args], {
    cwd: ROOT,
    env: { ...process.env, PLATFORM_DASHBOARD_TOKEN: owner },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (const deadline = Date.now() + 30_000; !/Signing secret .*: (whsec_\S+)/.test(output); await new Promise((resolve) => setTimeout(resolve, 50)))
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`events:listen did not start:\n${output}`);
  const secret = /Signing secret .*: (whsec_\S+)/.exec(output)![1]!;
  const endpointId = /endpoint (whe_\w+)/.exec(output)![1]!;
  return { child, secret, endpointId, exited, output: () => output };
}

const endpointsPath = () => `/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`;
const emit = async (type: string) => (await (await platform.identity(`/v0/sandbox/organisation/${ORG}/environments/${envId}/events`, { method: "POST", bearer: owner, json: { type } })).json()).id as string;

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("npm run events:listen", () => {
  it("prints each verified delivery, forwards it unchanged, answers the local app's status (so a 503 is retried), and deletes its endpoint on exit", { timeout: 90_000 }, async () => {
    const cli = await listen(["--forward", targetUrl, "--events", "user.created,user.kyc_status_changed"]);
    const endpoints = (await (await platform.identity(endpointsPath(), { bearer: owner })).json()).items;
    expect(endpoints).toEqual([expect.objectContaining({ id: cli.endpointId, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), event_types: ["user.created", "user.kyc_status_changed"] })]);

    const eventId = await emit("user.created");
    const first = await until("the forwarded delivery", () => forwarded.find((f) => f.headers["webhook-id"] === eventId));
    const headers = { "webhook-id": String(first.headers["webhook-id"]), "webhook-timestamp": String(first.headers["webhook-timestamp"]), "webhook-signature": String(first.headers["webhook-signature"]) };
    expect(new Webhook(cli.secret).verify(first.body, headers)).toMatchObject({ id: eventId, type: "user.created" });
    expect(first.headers).toMatchObject({ "content-type": "application/json", "user-agent": "platform-webhooks/1" });
    await until("the printed delivery", () => (cli.output().includes(`user.created  ${eventId}  verified`) ? true : undefined));

    // the local app refuses once: the platform records the 503 it relayed, and delivers again after about 5 s
    answers.push(503);
    const refused = await emit("user.kyc_status_changed");
    const { db } = (platform.subgraphs.identity as any).services;
    await until("the relayed 503", async () => (await db.webhookDelivery.findFirst({ where: { event_id: refused, last_status: 503 } })) ?? undefined);
    await until("the retried delivery", async () => (await db.webhookDelivery.findFirst({ where: { event_id: refused, status: "delivered" } })) ?? undefined);
    expect(forwarded.filter((f) => f.headers["webhook-id"] === refused)).toHaveLength(2);
    expect(cli.output()).toContain(`answered 503`);

    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain(`deleted endpoint ${cli.endpointId}`);
    expect((await (await platform.identity(endpointsPath(), { bearer: owner })).json()).items).toEqual([]);
  });

  it("adopts its endpoint left behind by a killed run on the same port, with a new secret, instead of making another", { timeout: 90_000 }, async () => {
    const port = String(await freePort());
    const killed = await listen(["--port", port]);
    killed.child.kill("SIGKILL");
    await killed.exited;
    const again = await listen(["--port", port]);
    expect(again.endpointId).toBe(killed.endpointId);
    expect(again.output()).toContain("reusing endpoint");
    expect(again.secret).not.toBe(killed.secret);
    const eventId = await emit("user.created");
    await until("the printed delivery", () => (again.output().includes(`user.created  ${eventId}  verified`) ? true : undefined));
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
    expect((await (await platform.identity(endpointsPath(), { bearer: owner })).json()).items).toEqual([]);
  });
});
