import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

// Fake external providers: real HTTP servers on loopback that check requests the way the hosted
// providers do (signature, Basic auth) and answer in their shapes. Written from the providers'
// documentation, independently of the clients under test.

interface Listening {
  url: string;
  stop(): Promise<void>;
}

async function serve(handler: (request: IncomingMessage, body: string, response: ServerResponse) => void): Promise<{ server: Server } & Listening> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handler(request, Buffer.concat(chunks).toString("utf8"), response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface FakeSumsub extends Listening {
  appToken: string;
  secretKey: string;
  /** externalUserId → applicant id */
  applicants: Map<string, string>;
  /** every request, with whether its signature verified */
  requests: { method: string; path: string; body: string; signed: boolean }[];
}

/**
 * Sumsub's API as far as the platform uses it: App Token authentication (`X-App-Token`,
 * `X-App-Access-Ts`, `X-App-Access-Sig` = hex HMAC-SHA256 over ts + METHOD + path + body), applicant
 * creation (409 for a known externalUserId), lookup by externalUserId, SDK access tokens.
 */
export async function startFakeSumsub(): Promise<FakeSumsub> {
  const appToken = `sbx:${randomBytes(12).toString("hex")}`;
  const secretKey = randomBytes(16).toString("hex");
  const applicants = new Map<string, string>();
  const requests: FakeSumsub["requests"] = [];
  const listening = await serve((request, body, response) => {
    const method = request.method ?? "";
    const path = request.url ?? "";
    const ts = String(request.headers["x-app-access-ts"] ?? "");
    const expected = createHmac("sha256", secretKey).update(`${ts}${method}${path}${body}`).digest("hex");
    const signed =
      request.headers["x-app-token"] === appToken &&
      /^\d+$/.test(ts) &&
      Math.abs(Date.now() / 1000 - Number(ts)) < 60 &&
      sameText(String(request.headers["x-app-access-sig"] ?? ""), expected);
    requests.push({ method, path, body, signed });
    if (!signed) return send(response, 401, { description: "Request signature mismatch", code: 401, correlationId: "fake" });

    const url = new URL(path, "http://sumsub.test");
    if (method === "POST" && url.pathname === "/resources/applicants") {
      const { externalUserId } = JSON.parse(body) as { externalUserId: string };
      const existing = applicants.get(externalUserId);
      if (existing) return send(response, 409, { description: `Applicant with external user id '${externalUserId}' already exists: ${existing}`, code: 409 });
      const id = randomBytes(12).toString("hex");
      applicants.set(externalUserId, id);
      return send(response, 201, { id, externalUserId, levelName: url.searchParams.get("levelName"), review: { reviewStatus: "init" } });
    }
    const lookup = /^\/resources\/applicants\/-;externalUserId=([^/]+)\/one$/.exec(url.pathname);
    if (method === "GET" && lookup) {
      const externalUserId = decodeURIComponent(lookup[1]!);
      const id = applicants.get(externalUserId);
      return id ? send(response, 200, { id, externalUserId }) : send(response, 404, { description: "Applicant not found", code: 404 });
    }
    if (method === "POST" && url.pathname === "/resources/accessTokens/sdk") {
      const { userId } = JSON.parse(body) as { userId: string };
      return send(response, 200, { token: `_act-sbx-${randomBytes(16).toString("hex")}`, userId });
    }
    send(response, 404, { description: "Not found", code: 404 });
  });
  return { ...listening, appToken, secretKey, applicants, requests };
}

export interface FakeTwilio extends Listening {
  accountSid: string;
  authToken: string;
  /** messages accepted: To, From, Body */
  messages: { To: string; From: string; Body: string }[];
  /** set to make the next sends fail with this Twilio status */
  failWith?: number;
}

/** Twilio's Messages API: Basic auth with the account SID and auth token, a form body, 201 with the message SID. */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const accountSid = `AC${randomBytes(16).toString("hex")}`;
  const authToken = randomBytes(16).toString("hex");
  const fake = { accountSid, authToken, messages: [] } as unknown as FakeTwilio;
  const listening = await serve((request, body, response) => {
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
    if (!sameText(String(request.headers.authorization ?? ""), expectedAuth)) return send(response, 401, { code: 20003, message: "Authenticate", status: 401 });
    if (request.method !== "POST" || request.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) return send(response, 404, { code: 20404, status: 404 });
    if (fake.failWith) return send(response, fake.failWith, { code: 21211, message: "The 'To' number is not a valid phone number.", status: fake.failWith });
    const form = new URLSearchParams(body);
    const message = { To: form.get("To") ?? "", From: form.get("From") ?? "", Body: form.get("Body") ?? "" };
    fake.messages.push(message);
    send(response, 201, { sid: `SM${randomBytes(16).toString("hex")}`, status: "queued", to: message.To, from: message.From });
  });
  return Object.assign(fake, listening);
}
