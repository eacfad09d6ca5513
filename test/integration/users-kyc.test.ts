import { beforeAll, describe, expect, it } from "vitest";
import type { UserPrincipal } from "../../lib/auth/principal.ts";
import { changeAccountStatus } from "../../subgraphs/users/kyc/account-transition.ts";
import { applyKycProviderEvent } from "../../subgraphs/users/kyc/kyc-provider-event.ts";
import type { KycProvider } from "../../subgraphs/users/kyc/kyc-provider.ts";
import { SandboxKycProvider } from "../../subgraphs/users/kyc/sandbox-kyc-provider.ts";
import { useUsersSubgraph, type UsersSubgraph } from "../support/users-subgraph.ts";

const harness = useUsersSubgraph({ subjectPrefix: "kyc" });
const { gql, errorOf, newUser } = harness;
let users: UsersSubgraph;
beforeAll(() => {
  users = harness.users;
});

const TOKEN = `mutation { kyc_access_token { token expires_at applicant_id provider } }`;
const STATUS = `{ kyc_status { status applicant_id provider updated_at can_submit } }`;
const SUBMIT = `mutation { submit_kyc { status can_submit applicant_id } }`;

async function statusRows(userId: string) {
  return users.services.db.statusChange.findMany({ where: { user_id: userId }, orderBy: { id: "asc" } });
}

async function setStatus(userId: string, status: string) {
  await users.services.db.user.update({ where: { id: userId }, data: { status } });
}

describe("kyc_status", () => {
  it("starts pending with no applicant, submittable, updated at registration", async () => {
    const { user_id, principal } = await newUser();
    const result = await gql(principal, STATUS);
    expect(result.errors).toBeUndefined();
    const registered = (await statusRows(user_id))[0]!.changed_at.getTime();
    expect(result.data.kyc_status).toEqual({ status: "pending", applicant_id: null, provider: null, updated_at: registered, can_submit: true });
  });
});

describe("kyc_access_token", () => {
  it("creates the applicant once and returns a short-lived SDK token", async () => {
    const { user_id, principal } = await newUser();
    const first = await gql(principal, TOKEN);
    expect(first.errors).toBeUndefined();
    const token = first.data.kyc_access_token;
    expect(token.provider).toBe("sandbox");
    expect(token.applicant_id).toMatch(/^sbxapp_/);
    expect(token.token.split(".")).toHaveLength(3);
    expect(token.expires_at).toBeGreaterThan(Date.now());
    expect(token.expires_at).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);

    const second = await gql(principal, TOKEN);
    expect(second.data.kyc_access_token.applicant_id).toBe(token.applicant_id);
    expect(await users.services.db.kycApplicant.count({ where: { user_id } })).toBe(1);

    const status = await gql(principal, STATUS);
    expect(status.data.kyc_status).toMatchObject({ applicant_id: token.applicant_id, provider: "sandbox" });
  });

  it("is race-safe: concurrent first calls all answer with the one stored applicant", async () => {
    const { user_id, principal } = await newUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => gql(principal, TOKEN)));
    for (const r of results) expect(r.errors).toBeUndefined();
    const stored = await users.services.db.kycApplicant.findMany({ where: { user_id } });
    expect(stored).toHaveLength(1);
    expect(new Set(results.map((r) => r.data.kyc_access_token.applicant_id))).toEqual(new Set([stored[0]!.applicant_id]));
  });

  it("maps provider failures to 502 KYC-502-001 and stores no applicant", async () => {
    const { user_id, principal } = await newUser();
    const original = users.services.kyc!;
    const failing: KycProvider = {
      name: "sandbox",
      ensureApplicant: async () => {
        throw new Error("provider down: secret-url");
      },
      accessToken: original.accessToken.bind(original),
    };
    users.services.kyc = failing;
    try {
      const error = errorOf(await gql(principal, TOKEN));
      expect(error).toMatchObject({ error_code: "KYC-502-001", status: 502 });
      expect(error.detail).not.toContain("secret-url");
      expect(await users.services.db.kycApplicant.count({ where: { user_id } })).toBe(0);

      users.services.kyc = { ...failing, ensureApplicant: original.ensureApplicant.bind(original), accessToken: async () => Promise.reject(new Error("token endpoint down")) };
      expect(errorOf(await gql(principal, TOKEN))).toMatchObject({ error_code: "KYC-502-001", status: 502 });
    } finally {
      users.services.kyc = original;
    }
  });

  it("refuses a rejected user: rejection is terminal", async () => {
    const { user_id, principal } = await newUser();
    await setStatus(user_id, "rejected");
    const error = errorOf(await gql(principal, TOKEN));
    expect(error).toMatchObject({ error_code: "KYC-409-001", status: 409 });
    expect(error.detail).toMatch(/final/);
  });
});

describe("submit_kyc", () => {
  it("needs an applicant first (KYC-409-002)", async () => {
    const { user_id, principal } = await newUser();
    expect(errorOf(await gql(principal, SUBMIT))).toMatchObject({ error_code: "KYC-409-002", status: 409 });
    expect((await gql(principal, STATUS)).data.kyc_status.status).toBe("pending");
    expect(await statusRows(user_id)).toHaveLength(1);
  });

  it("moves pending → in_progress with cause kyc_started and a status_history row", async () => {
    const { user_id, principal } = await newUser();
    await gql(principal, TOKEN);
    const result = await gql(principal, SUBMIT);
    expect(result.errors).toBeUndefined();
    expect(result.data.submit_kyc).toMatchObject({ status: "in_progress", can_submit: false });
    const rows = await statusRows(user_id);
    expect(rows.map((r) => [r.from, r.to, r.cause, r.ignored])).toEqual([
      [null, "pending", "registration", false],
      ["pending", "in_progress", "kyc_started", false],
    ]);
    const status = await gql(principal, STATUS);
    expect(status.data.kyc_status.updated_at).toBe(rows[1]!.changed_at.getTime());
  });

  it("applies concurrent submissions exactly once", async () => {
    const { user_id, principal } = await newUser();
    await gql(principal, TOKEN);
    const results = await Promise.all(Array.from({ length: 6 }, () => gql(principal, SUBMIT)));
    const ok = results.filter((r) => !r.errors);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.errors)) expect(errorOf(r)).toMatchObject({ error_code: "KYC-409-001", status: 409 });
    expect((await statusRows(user_id)).filter((r) => r.cause === "kyc_started")).toHaveLength(1);
  });

  it("refuses from in_progress, approved and rejected (rejected named terminal)", async () => {
    const { user_id, principal } = await newUser();
    await gql(principal, TOKEN);
    for (const [status, pattern] of [
      ["in_progress", /under review/],
      ["approved", /already verified/],
      ["rejected", /final and cannot be retried/],
    ] as const) {
      await setStatus(user_id, status);
      const error = errorOf(await gql(principal, SUBMIT));
      expect(error).toMatchObject({ error_code: "KYC-409-001", status: 409 });
      expect(error.detail).toMatch(pattern);
      expect((await gql(principal, STATUS)).data.kyc_status.can_submit).toBe(false);
    }
    expect(await statusRows(user_id)).toHaveLength(1);
  });

  it("a read-only personal access token cannot submit", async () => {
    const { user_id } = await newUser();
    const pat: UserPrincipal = { kind: "user", via: "pat", environment_id: "default", user_id, pat: { token_id: "pat_x", scopes: ["read"] } };
    expect(errorOf(await gql(pat, SUBMIT))).toMatchObject({ error_code: "USR-403-001" });
    expect((await gql(pat, STATUS)).errors).toBeUndefined();
  });
});

describe("the guarded status change", () => {
  it("writes nothing when the status is no longer the one read", async () => {
    const { user_id } = await newUser();
    await setStatus(user_id, "in_progress");
    const applied = await changeAccountStatus(users.services.db, { user_id, from: "pending", to: "in_progress", cause: "kyc_started" });
    expect(applied).toBe(false);
    expect(await statusRows(user_id)).toHaveLength(1);
  });
});

describe("applyKycProviderEvent", () => {
  async function inReview() {
    const user = await newUser();
    const token = await gql(user.principal, TOKEN);
    await gql(user.principal, SUBMIT);
    return { ...user, applicant_id: token.data.kyc_access_token.applicant_id as string };
  }
  const db = () => users.services.db;

  it("applies an allowed event with its event id, and a replay is a no-op", async () => {
    const { user_id, applicant_id, principal } = await inReview();
    const event = { applicant_id, event_id: `evt-${user_id}-1`, trigger: "kyc_approved" as const };
    expect(await applyKycProviderEvent(db(), event)).toEqual({ outcome: "applied", user_id, from: "in_progress", to: "approved" });
    expect(await applyKycProviderEvent(db(), event)).toEqual({ outcome: "duplicate" });
    const rows = await statusRows(user_id);
    expect(rows.filter((r) => r.event_id === event.event_id)).toHaveLength(1);
    expect(rows.at(-1)).toMatchObject({ from: "in_progress", to: "approved", cause: "kyc_approved", ignored: false });
    expect((await gql(principal, STATUS)).data.kyc_status.status).toBe("approved");
  });

  it("records a disallowed event as ignored, never applying it", async () => {
    const { user_id, applicant_id, principal } = await inReview();
    await applyKycProviderEvent(db(), { applicant_id, event_id: `evt-${user_id}-a`, trigger: "kyc_rejected" });
    const late = { applicant_id, event_id: `evt-${user_id}-b`, trigger: "kyc_approved" as const };
    expect(await applyKycProviderEvent(db(), late)).toEqual({ outcome: "ignored", user_id, status: "rejected" });
    expect(await applyKycProviderEvent(db(), late)).toEqual({ outcome: "duplicate" });
    const ignored = (await statusRows(user_id)).filter((r) => r.ignored);
    expect(ignored).toHaveLength(1);
    expect(ignored[0]).toMatchObject({ from: "rejected", to: "approved", cause: "kyc_approved", event_id: late.event_id });

    const me = await gql(principal, `{ me { status status_history { from to cause event_id ignored } } }`);
    expect(me.data.me.status).toBe("rejected");
    expect(me.data.me.status_history.at(-1)).toEqual({ from: "rejected", to: "approved", cause: "kyc_approved", event_id: late.event_id, ignored: true });
    // updated_at is the last applied change, not the ignored event
    const applied = (await statusRows(user_id)).filter((r) => !r.ignored).at(-1)!;
    expect((await gql(principal, STATUS)).data.kyc_status.updated_at).toBe(applied.changed_at.getTime());
  });

  it("ignores provider events before the user submitted", async () => {
    const { user_id, principal } = await newUser();
    const { applicant_id } = (await gql(principal, TOKEN)).data.kyc_access_token;
    expect(await applyKycProviderEvent(db(), { applicant_id, event_id: `evt-${user_id}`, trigger: "kyc_approved" })).toMatchObject({ outcome: "ignored", status: "pending" });
    expect((await gql(principal, STATUS)).data.kyc_status.status).toBe("pending");
  });

  it("is a no-op for an unknown applicant", async () => {
    const before = await db().statusChange.count();
    expect(await applyKycProviderEvent(db(), { applicant_id: "nobody", event_id: "evt-unknown", trigger: "kyc_approved" })).toEqual({ outcome: "unknown_applicant" });
    expect(await db().statusChange.count()).toBe(before);
  });

  it("applies concurrent deliveries of one event once", async () => {
    const { user_id, applicant_id } = await inReview();
    const event = { applicant_id, event_id: `evt-${user_id}-dup`, trigger: "kyc_retry_requested" as const };
    const outcomes = await Promise.all([applyKycProviderEvent(db(), event), applyKycProviderEvent(db(), event), applyKycProviderEvent(db(), event)]);
    expect(outcomes.filter((o) => o.outcome === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === "duplicate")).toHaveLength(2);
    expect((await statusRows(user_id)).filter((r) => r.event_id === event.event_id)).toHaveLength(1);
  });

  it("runs the retry loop of spec 3.1: retry → resubmitted → approved", async () => {
    const { user_id, applicant_id, principal } = await inReview();
    await applyKycProviderEvent(db(), { applicant_id, event_id: `evt-${user_id}-r`, trigger: "kyc_retry_requested" });
    expect((await gql(principal, STATUS)).data.kyc_status).toMatchObject({ status: "retry", can_submit: true });
    expect((await gql(principal, SUBMIT)).data.submit_kyc.status).toBe("in_progress");
    await applyKycProviderEvent(db(), { applicant_id, event_id: `evt-${user_id}-g`, trigger: "kyc_approved" });
    expect((await statusRows(user_id)).map((r) => r.cause)).toEqual(["registration", "kyc_started", "kyc_retry_requested", "kyc_resubmitted", "kyc_approved"]);
  });
});

it("the sandbox provider is the configured one", () => {
  expect(users.services.kyc).toBeInstanceOf(SandboxKycProvider);
});
