import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signKycPayload } from "../../../lib/webhooks/kyc-payload-digest.ts";
import { startPostgresCluster, type PostgresCluster } from "../../support/postgres.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { expectEachProblem, readOnlyPat, statusAndCode, type RouteCall } from "../../support/route-cases.ts";
import { onPostgres } from "../../support/test-database.ts";

// POST /v0/webhooks/kyc/kyc-provider/events (spec 3.1, 4.5, 5.3, 6) and the sandbox decision
// endpoint that drives it offline.
const SECRET = "kyc-test-secret-0123456789";
const PATH = "/v0/webhooks/kyc/kyc-provider/events";
const FIXED_DETAIL = "The KYC webhook's x-payload-digest signature is missing or invalid, or its createdAtMs is not recent.";

let platform: TestPlatform;
const stops: (() => Promise<void>)[] = [];
beforeAll(async () => {
  platform = await startTestPlatform({ KYC_WEBHOOK_SECRET: SECRET });
  stops.push(() => platform.stop());
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

type Answer = "GREEN" | "RED";
function reviewed(applicantId: string, externalUserId: string | undefined, answer: Answer, extra: Record<string, unknown> = {}) {
  return {
    type: "applicantReviewed",
    applicantId,
    ...(externalUserId !== undefined && { externalUserId }),
    correlationId: randomUUID(),
    levelName: "basic-kyc-level",
    reviewStatus: "completed",
    createdAtMs: new Date().toISOString(),
    reviewResult: { reviewAnswer: answer, ...(answer === "RED" && { reviewRejectType: "FINAL" }) },
    ...extra,
  };
}
function pending(applicantId: string, externalUserId: string) {
  return { type: "applicantPending", applicantId, externalUserId, correlationId: randomUUID(), reviewStatus: "pending", createdAtMs: new Date().toISOString() };
}

async function deliver(
  body: unknown,
  options: { secret?: string; alg?: string; digest?: string; headers?: Record<string, string>; target?: TestPlatform } = {},
): Promise<Response> {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const alg = options.alg ?? "HMAC_SHA256_HEX";
  const digest =
    options.digest ?? (alg === "HMAC_SHA512_HEX" ? signKycPayload(raw, options.secret ?? SECRET, "HMAC_SHA512_HEX") : signKycPayload(raw, options.secret ?? SECRET, "HMAC_SHA256_HEX"));
  return fetch((options.target ?? platform).urls.platform + PATH, {
    method: "POST",
    headers: { "content-type": "application/json", "x-payload-digest": digest, "x-payload-digest-alg": alg, ...options.headers },
    body: raw,
  });
}

/** A registered user with a provider applicant, moved to in_progress by submitting documents. */
async function submittedUser(target: TestPlatform = platform) {
  const user = await target.createUser();
  const token = await target.api("/v0/kyc/access-token", { method: "POST", jwt: user.jwt });
  expect(token.status).toBe(200);
  const { applicant_id } = await token.json();
  const submitted = await target.api("/v0/kyc/submissions", { method: "POST", jwt: user.jwt });
  expect(submitted.status).toBe(202);
  return { ...user, applicant_id: applicant_id as string };
}

async function me(jwt: string, target: TestPlatform = platform) {
  return (await target.api("/v0/user/me?expand=status_history", { jwt })).json();
}
type Change = { from: string | null; to: string; cause: string; event_id: string | null; ignored: boolean };
const providerRows = (history: Change[]) => history.filter((c) => c.event_id !== null);

describe("KYC webhook: mapping and the state table", () => {
  it("applicantReviewed GREEN after in_progress → approved, with a status_history row naming the event", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const response = await deliver(reviewed(applicant_id, id, "GREEN"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });

    const user = await me(jwt);
    expect(user.status).toBe("approved");
    const last: Change = user.status_history.at(-1);
    expect(last).toMatchObject({ from: "in_progress", to: "approved", cause: "kyc_approved", ignored: false });
    expect(last.event_id).toMatch(/^kyc_[0-9a-f]{64}$/);
    expect((await (await platform.api("/v0/kyc/status", { jwt })).json()).status).toBe("approved");
  });

  it("accepts HMAC_SHA512_HEX as well", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    expect((await deliver(reviewed(applicant_id, id, "GREEN"), { alg: "HMAC_SHA512_HEX" })).status).toBe(200);
    expect((await me(jwt)).status).toBe("approved");
  });

  it("RED → rejected (terminal); a late GREEN is accepted, recorded as ignored and not applied", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    expect((await deliver(reviewed(applicant_id, id, "RED"))).status).toBe(200);
    expect((await me(jwt)).status).toBe("rejected");

    const late = await deliver(reviewed(applicant_id, id, "GREEN"));
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ received: true });
    const user = await me(jwt);
    expect(user.status).toBe("rejected");
    expect(providerRows(user.status_history).map((c) => [c.from, c.to, c.cause, c.ignored])).toEqual([
      ["in_progress", "rejected", "kyc_rejected", false],
      ["rejected", "approved", "kyc_approved", true],
    ]);
    // the ignored row does not move updated_at, and rejection stays final for the user
    const token = await platform.api("/v0/kyc/access-token", { method: "POST", jwt });
    expect(token.status).toBe(409);
  });

  it("applicantPending → retry; the user resubmits → in_progress; then GREEN → approved", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    expect((await deliver(pending(applicant_id, id))).status).toBe(200);
    expect((await me(jwt)).status).toBe("retry");

    const resubmitted = await platform.api("/v0/kyc/submissions", { method: "POST", jwt });
    expect(resubmitted.status).toBe(202);
    expect((await resubmitted.json()).status).toBe("in_progress");

    expect((await deliver(reviewed(applicant_id, id, "GREEN"))).status).toBe(200);
    const user = await me(jwt);
    expect(user.status).toBe("approved");
    expect(user.status_history.map((c: Change) => `${c.from}->${c.to}:${c.cause}${c.ignored ? ":ignored" : ""}`)).toEqual([
      "null->pending:registration",
      "pending->in_progress:kyc_started",
      "in_progress->retry:kyc_retry_requested",
      "retry->in_progress:kyc_resubmitted",
      "in_progress->approved:kyc_approved",
    ]);
  });

  it("a provider event before documents were submitted (pending) is recorded as ignored", async () => {
    const user = await platform.createUser();
    const { applicant_id } = await (await platform.api("/v0/kyc/access-token", { method: "POST", jwt: user.jwt })).json();
    expect((await deliver(reviewed(applicant_id, user.id, "GREEN"))).status).toBe(200);
    const after = await me(user.jwt);
    expect(after.status).toBe("pending");
    expect(providerRows(after.status_history)).toMatchObject([{ from: "pending", to: "approved", cause: "kyc_approved", ignored: true }]);
  });
});

describe("KYC webhook: no-ops", () => {
  it("a replay of the same delivery is a no-op", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const event = reviewed(applicant_id, id, "GREEN");
    expect((await deliver(event)).status).toBe(200);
    const replay = await deliver(event);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true });
    // the same content re-serialised with other whitespace is the same event
    expect((await deliver(JSON.stringify(event, null, 2))).status).toBe(200);
    const user = await me(jwt);
    expect(user.status).toBe("approved");
    expect(providerRows(user.status_history)).toHaveLength(1);
  });

  it("an unknown applicant is a 200 no-op", async () => {
    const response = await deliver(reviewed(`sbxapp_${randomUUID()}`, "usr_unknown", "GREEN"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it("other event types are 200 no-ops", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    for (const type of ["applicantCreated", "applicantOnHold", "applicantPersonalInfoChanged", "videoIdentStatusChanged"]) {
      const response = await deliver({ type, applicantId: applicant_id, externalUserId: id, correlationId: randomUUID(), createdAtMs: new Date().toISOString() });
      expect(response.status).toBe(200);
    }
    const user = await me(jwt);
    expect(user.status).toBe("in_progress");
    expect(providerRows(user.status_history)).toHaveLength(0);
  });

  it("an externalUserId that is not the applicant's user is a 200 no-op with nothing written", async () => {
    const { jwt, applicant_id } = await submittedUser();
    const other = await platform.createUser();
    expect((await deliver(reviewed(applicant_id, other.id, "GREEN"))).status).toBe(200);
    const user = await me(jwt);
    expect(user.status).toBe("in_progress");
    expect(providerRows(user.status_history)).toHaveLength(0);
    // without externalUserId the applicant alone decides
    expect((await deliver(reviewed(applicant_id, undefined, "GREEN"))).status).toBe(200);
    expect((await me(jwt)).status).toBe("approved");
  });

  it("20 concurrent deliveries of one event apply it once", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const raw = JSON.stringify(reviewed(applicant_id, id, "RED"));
    const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(raw)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const user = await me(jwt);
    expect(user.status).toBe("rejected");
    expect(providerRows(user.status_history)).toMatchObject([{ from: "in_progress", to: "rejected", cause: "kyc_rejected", ignored: false }]);
  });
});

describe("KYC webhook: validation", () => {
  it("answers 422 for a verified body that is not a valid envelope, and changes nothing", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const createdAtMs = new Date().toISOString();
    const cases: [unknown, (string | number)[]][] = [
      [{ applicantId: applicant_id, externalUserId: id, createdAtMs }, ["body", "type"]],
      [{ type: "applicantReviewed", externalUserId: id, reviewResult: { reviewAnswer: "GREEN" }, createdAtMs }, ["body", "applicantId"]],
      [{ type: "applicantReviewed", applicantId: applicant_id, externalUserId: id, createdAtMs }, ["body", "reviewResult"]],
      [{ type: "applicantReviewed", applicantId: applicant_id, reviewResult: { reviewAnswer: "YELLOW" }, createdAtMs }, ["body", "reviewResult", "reviewAnswer"]],
      [{ type: "applicantReviewed", applicantId: applicant_id, reviewResult: {}, createdAtMs }, ["body", "reviewResult", "reviewAnswer"]],
      [{ type: 7, applicantId: applicant_id, createdAtMs }, ["body", "type"]],
      [{ type: "applicantReviewed", applicantId: applicant_id, reviewResult: { reviewAnswer: "GREEN" }, createdAtMs, sandboxMode: "yes" }, ["body", "sandboxMode"]],
      [[1, 2], ["body"]],
    ];
    for (const [body, loc] of cases) {
      const response = await deliver(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = await response.json();
      expect(problem.error_code).toBe("GEN-422-001");
      expect(problem.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
    const notJson = await deliver("{not json");
    expect(notJson.status).toBe(422);
    expect((await notJson.json()).detail[0]).toMatchObject({ type: "json_invalid", loc: ["body"] });
    expect((await me(jwt)).status).toBe("in_progress");
  });
});

describe("KYC webhook: signature", () => {
  async function expectRefused(response: Response) {
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 401, error_code: "WHK-401-001", detail: FIXED_DETAIL });
    return JSON.stringify(problem);
  }

  it("answers 401 WHK-401-001 with one fixed detail that never echoes what was sent, and changes nothing", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const event = reviewed(applicant_id, id, "GREEN");
    const raw = JSON.stringify(event);
    const good = signKycPayload(raw, SECRET);
    const tampered = raw.replace("GREEN", "GREEM");
    const sha1 = createHmac("sha1", SECRET).update(raw).digest("hex");
    const attempts: Response[] = [
      await fetch(platform.urls.platform + PATH, { method: "POST", headers: { "content-type": "application/json" }, body: raw }),
      await deliver(raw, { headers: { "x-payload-digest-alg": "" } }),
      await fetch(platform.urls.platform + PATH, { method: "POST", headers: { "content-type": "application/json", "x-payload-digest": good }, body: raw }),
      await deliver(raw, { secret: "wrong-secret" }),
      await deliver(tampered, { digest: good }),
      await deliver(raw, { alg: "HMAC_SHA1_HEX", digest: sha1 }),
      await deliver(raw, { alg: "HMAC_SHA384_HEX", digest: createHmac("sha384", SECRET).update(raw).digest("hex") }),
      await deliver(raw, { digest: "deadbeef-not-a-digest" }),
    ];
    for (const response of attempts) {
      const text = await expectRefused(response);
      for (const echoed of [good, sha1, "deadbeef", "HMAC_SHA1_HEX", "HMAC_SHA384_HEX", applicant_id]) expect(text).not.toContain(echoed);
    }
    expect((await me(jwt)).status).toBe("in_progress");
  });

  it("refuses every delivery when KYC_WEBHOOK_SECRET is not configured", async () => {
    const bare = await startTestPlatform();
    stops.push(() => bare.stop());
    const user = await bare.createUser();
    const { applicant_id } = await (await bare.api("/v0/kyc/access-token", { method: "POST", jwt: user.jwt })).json();
    await bare.api("/v0/kyc/submissions", { method: "POST", jwt: user.jwt });
    const raw = JSON.stringify(reviewed(applicant_id, user.id, "GREEN"));
    for (const secret of [SECRET, ""]) await expectRefused(await deliver(raw, { secret, target: bare }));
    expect((await me(user.jwt, bare)).status).toBe("in_progress");
    // the sandbox signs with its own secret, so its decisions still work (sandbox mode only)
    const decision = await bare.api("/v0/kyc/sandbox/decision", { method: "POST", jwt: user.jwt, json: { answer: "GREEN" } });
    expect(decision.status).toBe(200);
    expect(await decision.json()).toMatchObject({ webhook_status: 200, status: "approved" });
  });

  it("is in the OpenAPI document without a credential", async () => {
    const document = await (await fetch(`${platform.urls.platform}/openapi.json`)).json();
    const operation = document.paths[PATH].post;
    expect(operation.operationId).toBe("receiveKycProviderEvent");
    expect(operation.security).toEqual([{}]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
    expect(document.paths["/v0/kyc/sandbox/decision"].post.operationId).toBe("decideKycInSandbox");
  });
});

describe("KYC webhook: freshness (createdAtMs)", () => {
  const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
  const sumsubTime = (date: Date) => date.toISOString().replace("T", " ").replace("Z", "");

  it("refuses a validly signed event older or further ahead than 300 s with the same 401, before applying anything", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    // a minute past the tolerance (the exact boundary is kyc-event-freshness.test.ts's, on a fixed clock)
    for (const createdAtMs of [sumsubTime(at(-360_000)), at(-3_600_000).toISOString(), sumsubTime(at(360_000)), "2020-02-21 13:23:19.002", "last tuesday"]) {
      const response = await deliver(reviewed(applicant_id, id, "GREEN", { createdAtMs }));
      expect(response.status, createdAtMs).toBe(401);
      const problem = await response.json();
      expect(problem).toMatchObject({ error_code: "WHK-401-001", detail: FIXED_DETAIL });
      expect(JSON.stringify(problem)).not.toContain(createdAtMs);
    }
    const user = await me(jwt);
    expect(user.status).toBe("in_progress");
    expect(providerRows(user.status_history)).toHaveLength(0);
  });

  it("accepts Sumsub's own format within the window, and requires createdAtMs (422 without it)", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const missing = reviewed(applicant_id, id, "GREEN");
    delete (missing as { createdAtMs?: string }).createdAtMs;
    const refused = await deliver(missing);
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(["body", "createdAtMs"]);
    expect((await me(jwt)).status).toBe("in_progress");

    expect((await deliver(reviewed(applicant_id, id, "GREEN", { createdAtMs: sumsubTime(at(-290_000)) }))).status).toBe(200);
    expect((await me(jwt)).status).toBe("approved");
  });

  it("follows KYC_WEBHOOK_TOLERANCE_SECONDS", async () => {
    const wide = await startTestPlatform({ KYC_WEBHOOK_SECRET: SECRET, KYC_WEBHOOK_TOLERANCE_SECONDS: "3600" });
    stops.push(() => wide.stop());
    const { jwt, id, applicant_id } = await submittedUser(wide);
    expect((await deliver(reviewed(applicant_id, id, "GREEN", { createdAtMs: sumsubTime(at(-3_500_000)) }), { target: wide })).status).toBe(200);
    expect((await me(jwt, wide)).status).toBe("approved");
  });
});

describe("the internal mutation", () => {
  it("only the REST adapter's internal principal may call apply_kyc_provider_event", async () => {
    const { jwt, id, applicant_id } = await submittedUser();
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({
        query: `mutation($input: KycProviderEventInput!) { apply_kyc_provider_event(input: $input) { outcome } }`,
        variables: { input: { event_id: "forged", type: "applicantReviewed", applicant_id, external_user_id: id, review_answer: "GREEN" } },
      }),
    });
    const body = await response.json();
    expect(body.data?.apply_kyc_provider_event ?? null).toBeNull();
    expect(body.errors[0].extensions.error_code).toBe("USR-403-001");
    expect((await me(jwt)).status).toBe("in_progress");
  });
});

describe("sandbox provider decisions (POST /v0/kyc/sandbox/decision)", () => {
  it("runs the whole flow offline: access token → submission → decision → signed webhook → status", async () => {
    const { jwt, id } = await platform.createUser();
    const noApplicant = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "GREEN" } });
    expect(noApplicant.status).toBe(409);
    expect((await noApplicant.json()).error_code).toBe("KYC-409-002");

    const { applicant_id } = await (await platform.api("/v0/kyc/access-token", { method: "POST", jwt })).json();
    expect((await platform.api("/v0/kyc/submissions", { method: "POST", jwt })).status).toBe(202);

    const retry = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "PENDING" } });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ answer: "PENDING", event_type: "applicantPending", applicant_id, webhook_status: 200, status: "retry" });

    expect((await platform.api("/v0/kyc/submissions", { method: "POST", jwt })).status).toBe(202);
    const approved = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "GREEN" } });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ answer: "GREEN", event_type: "applicantReviewed", webhook_status: 200, status: "approved" });

    // a later RED is delivered, accepted and recorded as ignored: approved stays
    const late = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "RED" } });
    expect(late.status).toBe(200);
    expect((await late.json()).status).toBe("approved");

    const user = await me(jwt);
    expect(user.id).toBe(id);
    expect(providerRows(user.status_history).map((c) => `${c.from}->${c.to}:${c.cause}${c.ignored ? ":ignored" : ""}`)).toEqual([
      "in_progress->retry:kyc_retry_requested",
      "in_progress->approved:kyc_approved",
      "approved->rejected:kyc_rejected:ignored",
    ]);
  });

  it("RED rejects; the answer is validated; a credential is required", async () => {
    const { jwt } = await submittedUser();
    const bad = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "MAYBE" } });
    expect(bad.status).toBe(422);
    const red = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "RED" } });
    expect(red.status).toBe(200);
    expect((await red.json()).status).toBe("rejected");
    const anonymous = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", json: { answer: "GREEN" } });
    expect(anonymous.status).toBe(401);
  });
});

describe("KYC webhook: handler failure", () => {
  // only a server database can go away; PGlite lives in the process
  it.skipIf(!onPostgres)("answers 5xx while PostgreSQL is down, with nothing written, and applies the provider's retry", async () => {
    const cluster: PostgresCluster = await startPostgresCluster();
    stops.push(() => cluster.destroy());
    const own = await startTestPlatform({ DATABASE_URL: cluster.adminUrl, KYC_WEBHOOK_SECRET: SECRET });
    stops.push(() => own.stop());
    const { jwt, id, applicant_id } = await submittedUser(own);
    const raw = JSON.stringify(reviewed(applicant_id, id, "GREEN"));

    await cluster.stop();
    const down = await deliver(raw, { target: own });
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(down.headers.get("content-type")).toContain("application/problem+json");

    await cluster.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await deliver(raw, { target: own })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    const user = await me(jwt, own);
    expect(user.status).toBe("approved");
    expect(providerRows(user.status_history)).toMatchObject([{ from: "in_progress", to: "approved", cause: "kyc_approved", ignored: false }]);
  });
});

describe("KYC routes: errors and security", () => {
  it("answers 409 KYC-409-001 to a second submission while one is in review, and to a new session once rejected", async () => {
    const { jwt } = await submittedUser();
    expect(await statusAndCode(await platform.api("/v0/kyc/submissions", { method: "POST", jwt }))).toEqual({ status: 409, code: "KYC-409-001" });
    expect((await platform.api("/v0/kyc/sandbox/decision", { method: "POST", jwt, json: { answer: "RED" } })).status).toBe(200);
    expect(await statusAndCode(await platform.api("/v0/kyc/access-token", { method: "POST", jwt }))).toEqual({ status: 409, code: "KYC-409-001" });
  });

  it("answers 401 without a credential; a read-only personal access token reads the status but opens, submits and decides nothing (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/kyc/access-token" },
      { method: "POST", path: "/v0/kyc/submissions" },
      { method: "POST", path: "/v0/kyc/sandbox/decision", json: { answer: "GREEN" } },
    ];
    await expectEachProblem(platform, [{ path: "/v0/kyc/status" }, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    const status = await platform.api("/v0/kyc/status", { pat });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: "pending", can_submit: true, applicant_id: null });
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });
});
