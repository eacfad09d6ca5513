import { createServer, type Server } from "node:http";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../lib/config.ts";
import { SANDBOX_WARNING } from "../../../lib/sandbox.ts";
import { identityRoutes } from "../../../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../../../rest-adapter/hosts/platform.ts";
import { SANDBOX_TAG } from "../../../rest-adapter/route-kit/route.ts";
import { signKycPayload } from "../../../lib/webhooks/kyc-payload-digest.ts";
import { sandboxWebhookSecret } from "../../../lib/webhooks/sandbox-webhook-secret.ts";
import { startSingleProcess } from "../../../server/single-process.ts";
import { sandboxDecisionPayload } from "../../../subgraphs/users/kyc/sandbox-kyc-provider.ts";
import { startFakeSumsub, startFakeTwilio, type FakeSumsub, type FakeTwilio } from "../../support/fake-providers.ts";
import { capturingLogger } from "../../support/log-capture.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 7, item 1: sandbox providers, the sandbox decision route and test helpers exist only in
// sandbox mode; the sandbox never signs with the real provider's secret; codes are never logged.
const SECRET = "kyc-real-provider-secret-0123456789";
const INTERNAL_SECRET = "internal-secret-shared-by-every-service-0123456789";
const RECEIVER = "/v0/webhooks/kyc/kyc-provider/events";

let sumsub: FakeSumsub;
let twilio: FakeTwilio;
/** SANDBOX=false with real providers (fakes on loopback): what production looks like */
let off: TestPlatform;
let offLog: string[];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sumsub = await startFakeSumsub();
  twilio = await startFakeTwilio();
  stops.push(() => sumsub.stop(), () => twilio.stop());
  const captured = capturingLogger();
  offLog = captured.lines;
  off = await startTestPlatform(
    {
      SANDBOX: "false",
      SAFE_DEPLOYER: "chain",
      SAFE_DEPLOYER_KEY: generatePrivateKey(),
      KYC_WEBHOOK_SECRET: SECRET,
      INTERNAL_SECRET,
      KYC_PROVIDER: "sumsub",
      SUMSUB_APP_TOKEN: sumsub.appToken,
      SUMSUB_SECRET_KEY: sumsub.secretKey,
      SUMSUB_BASE_URL: sumsub.url,
      SMS_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: "+15005550006",
      TWILIO_BASE_URL: twilio.url,
    },
    { logger: captured.logger },
  );
  stops.push(() => off.stop());
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** A user of `target` with an applicant at its provider, moved to in_progress by submitting documents. */
async function submittedUser(target: TestPlatform) {
  const user = await target.createUser();
  const token = await target.api("/v0/kyc/access-token", { method: "POST", jwt: user.jwt });
  expect(token.status).toBe(200);
  const { applicant_id, provider } = await token.json();
  expect((await target.api("/v0/kyc/submissions", { method: "POST", jwt: user.jwt })).status).toBe(202);
  return { ...user, applicant_id: applicant_id as string, provider: provider as string };
}

async function kycStatus(target: TestPlatform, jwt: string) {
  return (await target.api("/v0/kyc/status", { jwt })).json();
}

function post(target: TestPlatform, raw: string, secret: string) {
  return fetch(target.urls.platform + RECEIVER, {
    method: "POST",
    headers: { "content-type": "application/json", "x-payload-digest": signKycPayload(raw, secret), "x-payload-digest-alg": "HMAC_SHA256_HEX" },
    body: raw,
  });
}

describe("sandbox off: the self-approval attack", () => {
  it("access token → submission → POST /v0/kyc/sandbox/decision answers the generic 404 and the status stays in_progress", async () => {
    const { jwt, applicant_id, provider } = await submittedUser(off);
    expect(provider).toBe("sumsub");
    expect(sumsub.applicants.size).toBeGreaterThan(0);
    const before = await kycStatus(off, jwt);
    expect(before.status).toBe("in_progress");

    const decision = await off.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "GREEN" } });
    expect(decision.status).toBe(404);
    expect(await decision.json()).toMatchObject({ error_code: "GEN-404-001", detail: "No resource exists at /v0/kyc/sandbox/decision." });

    // the GraphQL mutation behind it refuses too
    const graphql = await fetch(off.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: `mutation { kyc_sandbox_decision(answer: "GREEN") { status } }` }),
    });
    expect((await graphql.json()).errors[0].extensions.error_code).toBe("GEN-404-001");

    expect(await kycStatus(off, jwt)).toEqual(before);
    expect(applicant_id).toBe(before.applicant_id);
  });

  it("POST /v0/sandbox/deposits answers the generic 404, and its GraphQL mutation GEN-404-001", async () => {
    const { jwt } = await off.createUser();
    const wallet_id = (await (await off.api("/v0/wallets", { jwt })).json()).items[0].id;
    const deposit = await off.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "ETH", amount: "1" } });
    expect(deposit.status).toBe(404);
    expect(await deposit.json()).toMatchObject({ error_code: "GEN-404-001", detail: "No resource exists at /v0/sandbox/deposits." });
    const graphql = await fetch(off.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: `mutation { sandbox_deposit(input: { wallet_id: ${wallet_id}, asset: "ETH", amount: "1" }) { id } }` }),
    });
    expect((await graphql.json()).errors[0].extensions.error_code).toBe("GEN-404-001");
    const payment = await off.api("/v0/sandbox/payments", { method: "POST", jwt, json: { wallet_id, asset: "ETH", amount: "1" } });
    expect(payment.status).toBe(404);
    expect((await payment.json()).error_code).toBe("GEN-404-001");
    const authorization = await off.api("/v0/sandbox/cards/crd_any/authorizations", { method: "POST", jwt, json: { amount: "1", currency: "USD", merchant: { name: "X", mcc: "5411" } } });
    expect([authorization.status, (await authorization.json()).error_code]).toEqual([404, "GEN-404-001"]);
    const capture = await fetch(off.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: `mutation { sandbox_capture_card_authorization(id: "cau_any") { id } }` }),
    });
    expect((await capture.json()).errors[0].extensions.error_code).toBe("GEN-404-001");
    expect(await (off.subgraphs.finance as any).services.db.transaction.count()).toBe(0);
  });

  it("the receiver refuses an event signed with the sandbox secret, and one marked sandboxMode, even with the real secret", async () => {
    const { jwt, id, applicant_id } = await submittedUser(off);
    const event = sandboxDecisionPayload({ user_id: id, applicant_id, decision: "GREEN" });
    const sandboxSigned = await post(off, JSON.stringify(event), sandboxWebhookSecret(INTERNAL_SECRET, "kyc"));
    expect(sandboxSigned.status).toBe(401);
    expect((await sandboxSigned.json()).error_code).toBe("WHK-401-001");
    const realSigned = await post(off, JSON.stringify(event), SECRET);
    expect(realSigned.status).toBe(401);
    expect((await kycStatus(off, jwt)).status).toBe("in_progress");

    // the same decision from the real provider is applied: the refusals above were about the sandbox
    const { sandboxMode: _sandboxMode, ...real } = event;
    expect((await post(off, JSON.stringify(real), SECRET)).status).toBe(200);
    expect((await kycStatus(off, jwt)).status).toBe("approved");
  });

  it("has no sandbox banking provider: linking answers 503 BNK-503-001 and the widget route does not exist", async () => {
    const { jwt } = await off.createUser();
    const link = await off.api("/v0/open-banking/link-token", { method: "POST", jwt });
    expect({ status: link.status, code: (await link.json()).error_code }).toEqual({ status: 503, code: "BNK-503-001" });
    const widget = await off.api("/v0/sandbox/open-banking/link", { method: "POST", jwt, json: { link_token: "link-sandbox-x.y", institution_id: "ins_sandbox_first" } });
    expect(widget.status).toBe(404);
  });

  it("serves no Sandbox-tag route at all, and neither lists nor connects a sandbox connector (issue 26)", async () => {
    const { jwt } = await off.createUser();
    for (const route of platformRoutes.filter((r) => r.tag === SANDBOX_TAG)) {
      const path = route.path.replace(/\{\w+\}/g, "x_missing");
      const response = await off.api(path, { method: route.method, jwt, ...(route.method !== "GET" && { json: {} }) });
      expect([route.operationId, response.status]).toEqual([route.operationId, 404]);
    }
    // the identity host's too (issue 29's test events)
    const session = await off.dashboard.sign({ sub: "sandbox-off" });
    for (const route of identityRoutes.filter((r) => r.tag === SANDBOX_TAG)) {
      const response = await off.identity(route.path.replace(/\{\w+\}/g, "x_missing"), { method: route.method, bearer: session, ...(route.method !== "GET" && { json: {} }) });
      expect([route.operationId, response.status]).toEqual([route.operationId, 404]);
    }
    expect((await (await off.api("/v0/connectors", { jwt })).json()).items.map((c: { id: string }) => c.id)).toEqual(["con_open_banking"]);
    expect((await (await off.api("/v0/connectors?type=exchange", { jwt })).json()).items).toEqual([]);
    const graphql = await fetch(off.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query: "{ connectors { id } }" }) });
    expect((await graphql.json()).data.connectors).toEqual([{ id: "con_open_banking" }]);
    for (const connector_id of ["con_sandbox_exchange", "con_sandbox_books", "con_sandbox_tax"]) {
      const read = await off.api(`/v0/connectors/${connector_id}`, { jwt });
      expect([connector_id, read.status, (await read.json()).error_code]).toEqual([connector_id, 404, "CON-404-001"]);
      const response = await off.api("/v0/user/me/connectors", { method: "POST", jwt, json: { connector_id, credentials: { api_key: "sbx_alice123", api_secret: "s3cret-s3cret-s3cret" }, code: "sbx_code_abcdef" } });
      expect([connector_id, response.status, (await response.json()).error_code]).toEqual([connector_id, 404, "CON-404-001"]);
    }
    expect((await (await off.api("/v0/user/me/connectors", { jwt })).json()).items).toEqual([]);
  });

  it("is not documented: no sandbox route and no Sandbox tag in /openapi.json", async () => {
    const document = await (await off.api("/openapi.json")).json();
    expect(document.paths["/v0/kyc/sandbox/decision"]).toBeUndefined();
    expect(document.paths["/v0/sandbox/deposits"]).toBeUndefined();
    expect(document.paths["/v0/sandbox/payments"]).toBeUndefined();
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/v0/sandbox/"))).toEqual([]);
    expect(document.paths["/v0/cards/{card_id}/authorizations"]).toBeDefined();
    expect(document.tags.map((t: { name: string }) => t.name)).not.toContain("Sandbox");
    const identity = await (await off.identity("/openapi.json")).json();
    expect(Object.keys(identity.paths).filter((path) => path.startsWith("/v0/sandbox/"))).toEqual([]);
    expect(identity.tags.map((t: { name: string }) => t.name)).not.toContain("Sandbox");
  });
});

describe("sandbox off: SMS codes", () => {
  it("sends the code through the SMS provider and never logs it; the log has the masked number only", async () => {
    const { jwt } = await off.createUser();
    const sent = await off.api("/v0/user/me/phone/verification", { method: "POST", jwt, json: { phone_number: "+44 7700 900456" } });
    expect(sent.status).toBe(202);
    const message = twilio.messages.at(-1)!;
    expect(message).toMatchObject({ To: "+447700900456", From: "+15005550006" });
    const code = /\b(\d{6})\b/.exec(message.Body)![1]!;

    const confirmed = await off.api("/v0/user/me/phone/verification/confirm", { method: "POST", jwt, json: { code } });
    expect(confirmed.status).toBe(200);
    expect((await confirmed.json()).phone_number).toBe("+447700900456");

    const log = offLog.join("");
    expect(log).toContain('"sms_to":"+44*******456"');
    expect(log).not.toContain(code);
    expect(log).not.toContain(message.Body);
    expect(log).not.toContain("+447700900456");
  });

  it("logs no SANDBOX warning", () => {
    expect(offLog.join("")).not.toContain(SANDBOX_WARNING);
  });
});

describe("sandbox off without providers", () => {
  it("answers 503 KYC-503-001 and PHN-503-001 instead of faking", async () => {
    const bare = await startTestPlatform({ SANDBOX: "false", SAFE_DEPLOYER: "chain", SAFE_DEPLOYER_KEY: generatePrivateKey() });
    stops.push(() => bare.stop());
    const { jwt } = await bare.createUser();
    const token = await bare.api("/v0/kyc/access-token", { method: "POST", jwt });
    expect(token.status).toBe(503);
    expect((await token.json()).error_code).toBe("KYC-503-001");
    const phone = await bare.api("/v0/user/me/phone/verification", { method: "POST", jwt, json: { phone_number: "+447700900123" } });
    expect(phone.status).toBe(503);
    expect((await phone.json()).error_code).toBe("PHN-503-001");
    expect((await bare.api("/v0/kyc/status", { jwt })).status).toBe(200);
  });

  it("refuses to start the users service without SAFE_DEPLOYER=chain", async () => {
    const config = loadConfig({ SANDBOX: "false", DATA_DIR: "memory://", LOG_LEVEL: "silent" });
    await expect(startSingleProcess(config, { listen: false })).rejects.toThrow("SAFE_DEPLOYER: set chain (sandbox needs SANDBOX=true)");
  });
});

describe("sandbox on", () => {
  let sandbox: TestPlatform;
  let sandboxLog: string[];
  let capture: Server;
  const deliveries: { raw: string; headers: Record<string, string | string[] | undefined> }[] = [];

  beforeAll(async () => {
    // PUBLIC_BASE_URL points the sandbox's webhook at this recorder, to see what it signs with
    capture = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        deliveries.push({ raw: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
        response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, "127.0.0.1", resolve));
    const { port } = capture.address() as { port: number };
    const captured = capturingLogger();
    sandboxLog = captured.lines;
    sandbox = await startTestPlatform({ KYC_WEBHOOK_SECRET: SECRET, INTERNAL_SECRET, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { logger: captured.logger });
    stops.push(() => sandbox.stop(), () => new Promise<void>((resolve) => capture.close(() => resolve())));
  });

  it("warns once at start-up", () => {
    const warnings = sandboxLog.map((line) => JSON.parse(line)).filter((entry) => entry.msg === SANDBOX_WARNING);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].level).toBe(40);
  });

  it("signs decisions with the sandbox's own secret, never KYC_WEBHOOK_SECRET, and marks them sandboxMode", async () => {
    const { jwt, applicant_id, provider } = await submittedUser(sandbox);
    expect(provider).toBe("sandbox");
    const decision = await sandbox.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "GREEN" } });
    expect(decision.status).toBe(200);
    const { raw, headers } = deliveries.at(-1)!;
    expect(JSON.parse(raw)).toMatchObject({ type: "applicantReviewed", applicantId: applicant_id, sandboxMode: true });
    expect(headers["x-payload-digest"]).toBe(signKycPayload(raw, sandboxWebhookSecret(INTERNAL_SECRET, "kyc")));
    expect(headers["x-payload-digest"]).not.toBe(signKycPayload(raw, SECRET));

    // the sandbox's delivery is applied by a receiver in sandbox mode …
    expect((await post(sandbox, raw, sandboxWebhookSecret(INTERNAL_SECRET, "kyc"))).status).toBe(200);
    expect((await kycStatus(sandbox, jwt)).status).toBe("approved");
    // … and refused by one outside it, even when both share INTERNAL_SECRET
    expect((await post(off, raw, sandboxWebhookSecret(INTERNAL_SECRET, "kyc"))).status).toBe(401);
  });

  it("documents the decision route under its own Sandbox tag", async () => {
    const document = await (await sandbox.api("/openapi.json")).json();
    expect(document.paths["/v0/kyc/sandbox/decision"].post).toMatchObject({ operationId: "decideKycInSandbox", tags: ["Sandbox"] });
    expect(document.tags.map((t: { name: string }) => t.name)).toContain("Sandbox");
  });
});
