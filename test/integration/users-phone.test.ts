import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { confirmPhoneVerification } from "../../subgraphs/users/phone/confirm-phone-verification.ts";
import { PHONE_CODE_TTL_MS } from "../../subgraphs/users/phone/phone-code.ts";
import type { SandboxSmsSender } from "../../subgraphs/users/phone/sandbox-sms-sender.ts";
import { startPhoneVerification } from "../../subgraphs/users/phone/start-phone-verification.ts";
import { useUsersSubgraph, type UsersSubgraph } from "../support/users-subgraph.ts";

const harness = useUsersSubgraph({ subjectPrefix: "phone" });
const { gql, errorOf, newUser } = harness;
let users: UsersSubgraph;
beforeAll(() => {
  users = harness.users;
});

const START = `mutation($n: String!) { start_phone_verification(phone_number: $n) { phone_number expires_at attempts_remaining } }`;
const CONFIRM = `mutation($c: String!) { confirm_phone_verification(code: $c) { phone_number verified verified_at pending { phone_number } } }`;
const STATE = `{ phone { phone_number verified verified_at pending { phone_number expires_at attempts_remaining } } }`;

// Distinct numbers per user: the sandbox outbox keeps the last SMS per number.
let numbers = 0;
const nextNumber = () => `+4915112${String(++numbers).padStart(6, "0")}`;
const outbox = () => (users.services.sms as SandboxSmsSender).outbox;
const sentCode = (number: string) => /\b(\d{6})\b/.exec(outbox().get(number) ?? "")?.[1];
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("start_phone_verification", () => {
  it("validates E.164 (422 at phone_number)", async () => {
    const { principal } = await newUser();
    for (const bad of ["004915112345678", "+0123456789", "+12", "+1234567890123456", "phone"]) {
      const error = errorOf(await gql(principal, START, { n: bad }));
      expect(error).toMatchObject({ error_code: "GEN-422-001", status: 422 });
      expect(error.validation![0]!.loc).toEqual(["phone_number"]);
    }
  });

  it("sends a 6-digit code, stores only its HMAC, expires in ten minutes", async () => {
    const { user_id, principal } = await newUser();
    const before = Date.now();
    const result = await gql(principal, START, { n: "+49 (151) 99-000 001" });
    expect(result.errors).toBeUndefined();
    expect(result.data.start_phone_verification).toMatchObject({ phone_number: "+4915199000001", attempts_remaining: 5 });
    const expires = result.data.start_phone_verification.expires_at as number;
    expect(expires).toBeGreaterThanOrEqual(before + PHONE_CODE_TTL_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + PHONE_CODE_TTL_MS);

    const code = sentCode("+4915199000001")!;
    expect(code).toMatch(/^\d{6}$/);
    const row = await users.services.db.phoneVerification.findFirstOrThrow({ where: { user_id } });
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toBe(createHmac("sha256", users.services.phoneCodeKey).update(`phone-verification:${row.id}:${code}`).digest("hex"));

    const state = await gql(principal, STATE);
    expect(state.data.phone).toEqual({ phone_number: null, verified: false, verified_at: null, pending: { phone_number: "+4915199000001", expires_at: expires, attempts_remaining: 5 } });
  });

  it("rate-limits to five codes per user and hour (429 PHN-429-001, Retry-After)", async () => {
    const { user_id } = await newUser();
    const t0 = new Date("2030-01-01T00:00:00Z");
    const start = (minutes: number) =>
      startPhoneVerification(users.services.db, { user_id, phone_number: nextNumber(), sms: users.services.sms!, key: users.services.phoneCodeKey, now: new Date(t0.getTime() + minutes * 60_000) });
    for (const minute of [0, 1, 2, 3, 4]) await start(minute);
    const limited = await start(10).catch((e: AppError) => e);
    expect(limited).toBeInstanceOf(AppError);
    expect(limited).toMatchObject({ code: "PHN-429-001", status: 429, retryAfter: 50 * 60 });
    expect(await users.services.db.phoneVerification.count({ where: { user_id } })).toBe(5);
    // the oldest code leaves the window after an hour
    await expect(start(59.5)).rejects.toMatchObject({ code: "PHN-429-001", retryAfter: 30 });
    await expect(start(60)).resolves.toMatchObject({ attempts_remaining: 5 });
    await expect(start(60.5)).rejects.toMatchObject({ code: "PHN-429-001", retryAfter: 30 });
  });

  it("the rate limit reaches GraphQL as retry_after", async () => {
    const { principal } = await newUser();
    for (let i = 0; i < 5; i++) expect((await gql(principal, START, { n: nextNumber() })).errors).toBeUndefined();
    const error = errorOf(await gql(principal, START, { n: nextNumber() }));
    expect(error).toMatchObject({ error_code: "PHN-429-001", status: 429 });
    expect(error.retry_after).toBeGreaterThan(3500);
  });

  it("on SMS failure answers 502 PHN-502-001 and stores nothing", async () => {
    const { user_id, principal } = await newUser();
    const original = users.services.sms;
    users.services.sms = { name: "down", send: async () => Promise.reject(new Error("gateway timeout")) };
    try {
      for (let i = 0; i < 6; i++) expect(errorOf(await gql(principal, START, { n: nextNumber() }))).toMatchObject({ error_code: "PHN-502-001", status: 502 });
    } finally {
      users.services.sms = original;
    }
    expect(await users.services.db.phoneVerification.count({ where: { user_id } })).toBe(0);
    // failed sends did not use up the hourly allowance
    expect((await gql(principal, START, { n: nextNumber() })).errors).toBeUndefined();
  });
});

describe("confirm_phone_verification", () => {
  it("sets the user's phone on the right code", async () => {
    const { user_id, principal } = await newUser();
    const number = nextNumber();
    await gql(principal, START, { n: number });
    const result = await gql(principal, CONFIRM, { c: sentCode(number) });
    expect(result.errors).toBeUndefined();
    expect(result.data.confirm_phone_verification).toMatchObject({ phone_number: number, verified: true, pending: null });
    const user = await users.services.db.user.findUniqueOrThrow({ where: { id: user_id } });
    expect(user.phone_number).toBe(number);
    expect(user.phone_verified_at!.getTime()).toBe(result.data.confirm_phone_verification.verified_at);
    expect((await gql(principal, `{ me { phone_number } }`)).data.me.phone_number).toBe(number);
    // the code is used: nothing is pending any more
    expect(errorOf(await gql(principal, CONFIRM, { c: sentCode(number) }))).toMatchObject({ error_code: "PHN-404-001", status: 404 });
  });

  it("404 PHN-404-001 with no code requested; 422 for a malformed code", async () => {
    const { principal } = await newUser();
    expect(errorOf(await gql(principal, CONFIRM, { c: "123456" }))).toMatchObject({ error_code: "PHN-404-001", status: 404 });
    const error = errorOf(await gql(principal, CONFIRM, { c: "12a456" }));
    expect(error).toMatchObject({ error_code: "GEN-422-001" });
    expect(error.validation![0]!.loc).toEqual(["code"]);
  });

  it("counts wrong codes: 400 with attempts remaining, then 410 after five, even for the right code", async () => {
    const { user_id, principal } = await newUser();
    const number = nextNumber();
    await gql(principal, START, { n: number });
    const code = sentCode(number)!;
    const details: string[] = [];
    for (let i = 0; i < 5; i++) {
      const error = errorOf(await gql(principal, CONFIRM, { c: wrong(code) }));
      expect(error).toMatchObject({ error_code: "PHN-400-001", status: 400 });
      details.push(error.detail);
    }
    expect(details[0]).toMatch(/4 attempts remaining/);
    expect(details[3]).toMatch(/1 attempt remaining/);
    expect(details[4]).toMatch(/no attempts remain/);
    expect(errorOf(await gql(principal, CONFIRM, { c: code }))).toMatchObject({ error_code: "PHN-410-001", status: 410 });
    expect((await users.services.db.user.findUniqueOrThrow({ where: { id: user_id } })).phone_number).toBeNull();
    expect((await gql(principal, STATE)).data.phone.pending).toBeNull();
  });

  it("a right code after a few wrong ones still works", async () => {
    const { principal } = await newUser();
    const number = nextNumber();
    await gql(principal, START, { n: number });
    const code = sentCode(number)!;
    for (let i = 0; i < 4; i++) await gql(principal, CONFIRM, { c: wrong(code) });
    expect((await gql(principal, STATE)).data.phone.pending.attempts_remaining).toBe(1);
    expect((await gql(principal, CONFIRM, { c: code })).data.confirm_phone_verification.verified).toBe(true);
  });

  it("parallel guesses cannot exceed the attempt limit", async () => {
    const { user_id, principal } = await newUser();
    const number = nextNumber();
    await gql(principal, START, { n: number });
    const code = sentCode(number)!;
    const results = await Promise.all(Array.from({ length: 12 }, () => gql(principal, CONFIRM, { c: wrong(code) })));
    const codes = results.map((r) => errorOf(r).error_code);
    expect(codes.filter((c) => c === "PHN-400-001")).toHaveLength(5);
    expect(codes.filter((c) => c === "PHN-410-001")).toHaveLength(7);
    expect((await users.services.db.phoneVerification.findFirstOrThrow({ where: { user_id } })).attempts).toBe(5);
  });

  it("expires ten minutes after sending (injected clock)", async () => {
    const { user_id } = await newUser();
    const t0 = new Date("2031-05-05T12:00:00Z");
    const codes = ["111111", "222222"];
    const start = (now: Date) =>
      startPhoneVerification(users.services.db, { user_id, phone_number: nextNumber(), sms: users.services.sms!, key: users.services.phoneCodeKey, now, generateCode: () => codes.shift()! });
    const confirm = (code: string, now: Date) => confirmPhoneVerification(users.services.db, { user_id, code, key: users.services.phoneCodeKey, now });

    await start(t0);
    await expect(confirm("111111", new Date(t0.getTime() + PHONE_CODE_TTL_MS))).rejects.toMatchObject({ code: "PHN-410-001", status: 410 });
    const t1 = new Date(t0.getTime() + PHONE_CODE_TTL_MS + 1000);
    await start(t1);
    await expect(confirm("222222", new Date(t1.getTime() + PHONE_CODE_TTL_MS - 1))).resolves.toMatchObject({ verified: true });
  });

  it("a new code supersedes the earlier one", async () => {
    const { principal } = await newUser();
    const first = nextNumber();
    const second = nextNumber();
    await gql(principal, START, { n: first });
    await gql(principal, START, { n: second });
    const old = sentCode(first)!;
    if (old !== sentCode(second)) expect(errorOf(await gql(principal, CONFIRM, { c: old }))).toMatchObject({ error_code: "PHN-400-001" });
    const result = await gql(principal, CONFIRM, { c: sentCode(second) });
    expect(result.data.confirm_phone_verification.phone_number).toBe(second);
  });
});
