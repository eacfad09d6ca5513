import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UsersServices } from "../../../subgraphs/users/services.ts";
import { signWalletClaim } from "../../../rest-adapter/webhooks/wallet-claim-signature.ts";
import { startPostgresCluster } from "../../support/postgres.ts";
import type { PrivateKeyAccount } from "viem/accounts";
import { pregeneratedWalletMessage } from "../../../subgraphs/users/pregenerated/register-pregenerated-wallet.ts";
import { randomAddress, startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";
import { onPostgres } from "../../support/test-database.ts";

// POST /v0/webhooks/embedded-wallet/wallet-claimed (spec 2.8, 4.5, 5.3, 6), on real listeners.
const PATH = "/v0/webhooks/embedded-wallet/wallet-claimed";
const FIXED_DETAIL = "The webhook signature or timestamp is missing or invalid.";
const oldSecret = `whsec_${randomBytes(24).toString("base64")}`;
const newSecret = `whsec_${randomBytes(32).toString("base64")}`;

let platform: TestPlatform;
const stops: (() => Promise<void>)[] = [];
beforeAll(async () => {
  platform = await startTestPlatform({ WALLET_CLAIM_WEBHOOK_SECRETS: `${oldSecret},${newSecret}` });
  stops.push(() => platform.stop());
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const now = () => String(Math.floor(Date.now() / 1000));

function envelope(walletId: string, walletAddress: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `evt_${randomUUID()}`,
    type: "wallet.pregen_claimed",
    data: { walletId, walletAddress, walletType: "EVM", claimedAt: "2026-11-21T10:00:00.000Z" },
    createdAt: "2026-11-21T10:00:01.000Z",
    ...overrides,
  };
}

interface DeliveryOptions {
  secret?: string;
  timestamp?: string;
  id?: string | null;
  signature?: string | null;
  raw?: string;
}

/** A delivery signed like the provider does: v1,base64(HMAC(key, "{timestamp}.{body}")). */
function deliver(target: TestPlatform, event: Record<string, unknown> | undefined, options: DeliveryOptions = {}) {
  const raw = options.raw ?? JSON.stringify(event);
  const timestamp = options.timestamp ?? now();
  const headers: Record<string, string> = { "content-type": "application/json", "webhook-timestamp": timestamp };
  const signature = options.signature === undefined ? signWalletClaim(options.secret ?? newSecret, timestamp, raw) : options.signature;
  if (signature !== null) headers["webhook-signature"] = signature;
  const id = options.id === undefined ? String(event?.["id"]) : options.id;
  if (id !== null) headers["webhook-id"] = id;
  return fetch(target.urls.platform + PATH, { method: "POST", headers, body: raw });
}

/** The body of POST /v0/wallets/pregenerated, signed by the wallet's key as the provider's server-side signing would. */
async function pregeneratedBody(userId: string, account: PrivateKeyAccount, overrides: { provider_wallet_id?: string; issued_at?: number } = {}) {
  const fields = { user_id: userId, provider_wallet_id: overrides.provider_wallet_id ?? `pw_${randomUUID()}`, address: account.address, type: "EVM", issued_at: overrides.issued_at ?? Date.now() };
  const { user_id: _u, ...body } = fields;
  return { ...body, signature: await account.signMessage({ message: pregeneratedWalletMessage(fields) }) };
}

/** A user with a wallet pregenerated for them, registered through the REST endpoint. */
async function userWithPregeneratedWallet(target: TestPlatform = platform) {
  const user = await target.createUser();
  const account = newAccount();
  const wallet = await pregeneratedBody(user.id, account);
  const response = await target.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: wallet });
  expect(response.status).toBe(201);
  const body = await response.json();
  return { user, wallet, account, registered: body };
}

/** the users subgraph's Prisma client (single process) */
const usersDb = (target: TestPlatform) => (target.subgraphs.users as unknown as { services: UsersServices }).services.db;
const claims = (target: TestPlatform, where: Record<string, unknown>) => usersDb(target).walletClaim.findMany({ where });

describe("POST /v0/wallets/pregenerated", () => {
  it("registers a pregenerated wallet for the user, lists it unclaimed, and refuses its address for anyone else (409)", async () => {
    const { user, wallet, account, registered } = await userWithPregeneratedWallet();
    expect(registered).toMatchObject({ provider_wallet_id: wallet.provider_wallet_id, address: wallet.address, type: "EVM", claimed_at: null });
    const list = await (await platform.api("/v0/wallets/pregenerated", { jwt: user.jwt })).json();
    expect(list.items).toHaveLength(1);
    const other = await platform.createUser();
    const sameAddress = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: other.jwt, json: await pregeneratedBody(other.id, account) });
    expect(sameAddress.status).toBe(409);
    expect(await sameAddress.json()).toMatchObject({ error_code: "WAL-409-005" });
    expect((await platform.api("/v0/wallets/pregenerated", { method: "POST", json: wallet })).status).toBe(401);
    expect((await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: { address: "0x1" } })).status).toBe(422);
  });

  it("needs proof of control by the address: none is 422, another key's or a stale one 400 WAL-400-001, nothing stored", async () => {
    const user = await platform.createUser();
    const account = newAccount();
    const { signature: _s, ...unsigned } = await pregeneratedBody(user.id, account);
    const missing = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: unsigned });
    expect(missing.status).toBe(422);
    expect((await missing.json()).detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ["body", "signature"], type: "missing" })]));

    const byOtherKey = { ...(await pregeneratedBody(user.id, newAccount())), address: account.address };
    const forged = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: byOtherKey });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error_code: "WAL-400-001" });
    // a signature made for another user does not carry over
    const other = await platform.createUser();
    expect((await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: await pregeneratedBody(other.id, account) })).status).toBe(400);
    const stale = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: await pregeneratedBody(user.id, account, { issued_at: Date.now() - 11 * 60_000 }) });
    expect(stale.status).toBe(400);
    expect(await usersDb(platform).pregeneratedWallet.count({ where: { address_key: account.address.toLowerCase() } })).toBe(0);
  });

  it("answers a conflict the same whoever holds the address (the caller or another user)", async () => {
    const { user, account } = await userWithPregeneratedWallet();
    const other = await platform.createUser();
    const mine = await (await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: user.jwt, json: await pregeneratedBody(user.id, account) })).json();
    const theirs = await (await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: other.jwt, json: await pregeneratedBody(other.id, account) })).json();
    const { trace_id: _a, ...a } = mine;
    const { trace_id: _b, ...b } = theirs;
    expect(a).toEqual(b);
    expect(a.detail).not.toMatch(/user|usr_/i);
  });

  it("an attacker naming the victim's provider wallet id with their own wallet neither blocks the victim nor gets the victim's claim", async () => {
    const victimWallet = newAccount();
    const providerWalletId = `pw_${randomUUID()}`;
    const attacker = await platform.createUser();
    const squat = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: attacker.jwt, json: await pregeneratedBody(attacker.id, newAccount(), { provider_wallet_id: providerWalletId }) });
    expect(squat.status).toBe(201);
    const victim = await platform.createUser();
    const registered = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: victim.jwt, json: await pregeneratedBody(victim.id, victimWallet, { provider_wallet_id: providerWalletId }) });
    expect(registered.status).toBe(201);

    expect((await deliver(platform, envelope(providerWalletId, victimWallet.address))).status).toBe(200);
    expect(await claims(platform, { user_id: attacker.id })).toHaveLength(0);
    expect(await claims(platform, { user_id: victim.id })).toHaveLength(1);
  });

  it("a row registered before proofs were required (unproven) gets no claim, and gives way to a proven registration of its address", async () => {
    const squatter = await platform.createUser();
    const victimWallet = newAccount();
    await usersDb(platform).pregeneratedWallet.create({
      data: { user_id: squatter.id, provider_wallet_id: `pw_${randomUUID()}`, address: victimWallet.address, address_key: victimWallet.address.toLowerCase(), type: "EVM" },
    });
    expect((await deliver(platform, envelope(`pw_${randomUUID()}`, victimWallet.address))).status).toBe(200);
    expect(await claims(platform, { user_id: squatter.id })).toHaveLength(0);

    const victim = await platform.createUser();
    const registered = await platform.api("/v0/wallets/pregenerated", { method: "POST", jwt: victim.jwt, json: await pregeneratedBody(victim.id, victimWallet) });
    expect(registered.status).toBe(201);
    expect(await (await platform.api("/v0/wallets/pregenerated", { jwt: squatter.jwt })).json()).toMatchObject({ items: [] });
    expect((await deliver(platform, envelope(`pw_${randomUUID()}`, victimWallet.address))).status).toBe(200);
    expect(await claims(platform, { user_id: victim.id })).toHaveLength(1);
  });
});

describe("/v0/wallets/pregenerated: security", () => {
  it("answers 401 without a credential, lists only the caller's own, and a read-only personal access token lists but registers nothing (403 USR-403-001)", async () => {
    const { user } = await userWithPregeneratedWallet();
    const other = await platform.createUser();
    expect((await (await platform.api("/v0/wallets/pregenerated", { jwt: other.jwt })).json()).items).toEqual([]);
    const register: RouteCall = { method: "POST", path: "/v0/wallets/pregenerated", json: await pregeneratedBody(user.id, newAccount()) };
    await expectEachProblem(platform, [{ path: "/v0/wallets/pregenerated" }, register], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    const listed = await platform.api("/v0/wallets/pregenerated", { pat });
    expect(listed.status).toBe(200);
    expect((await listed.json()).items).toHaveLength(1);
    await expectEachProblem(platform, [register], { pat }, { status: 403, code: "USR-403-001" });
  });
});

describe("POST /v0/webhooks/embedded-wallet/wallet-claimed", () => {
  it("records the claim against the matching user, and nothing else", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const me = () => platform.api("/v0/user/me?expand=wallets,status_history", { jwt: user.jwt }).then((r) => r.json());
    // the registration's Safe deployment settles in the background first: a change of its own
    // between the two reads is not the claim's (it raced this test on PostgreSQL)
    const before = await vi.waitFor(async () => {
      const read = await me();
      expect(read.safe_creation_status).toBe("completed");
      return read;
    }, { timeout: 10_000, interval: 50 });
    const event = envelope(wallet.provider_wallet_id, wallet.address);
    const response = await deliver(platform, event);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });

    const rows = await claims(platform, { user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id: event.id,
      user_id: user.id,
      provider_wallet_id: wallet.provider_wallet_id,
      wallet_address: wallet.address,
      wallet_type: "EVM",
      claimed_at: new Date("2026-11-21T10:00:00.000Z"),
    });
    const list = await (await platform.api("/v0/wallets/pregenerated", { jwt: user.jwt, headers: { "x-timestamp-format": "iso8601" } })).json();
    expect(new Date(list.items[0].claimed_at).toISOString()).toBe("2026-11-21T10:00:00.000Z");
    // the user, their wallets and status are untouched
    const after = await me();
    expect({ ...after, updated_at: undefined }).toEqual({ ...before, updated_at: undefined });
  });

  it("matches by the proven address (0x addresses case-insensitively), whatever provider wallet id the event names", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const response = await deliver(platform, envelope("some-other-id", wallet.address.toLowerCase()));
    expect(response.status).toBe(200);
    expect(await claims(platform, { user_id: user.id })).toHaveLength(1);
  });

  it("accepts a value signed with the old secret during rotation, and several values in one header", async () => {
    const first = await userWithPregeneratedWallet();
    expect((await deliver(platform, envelope(first.wallet.provider_wallet_id, first.wallet.address), { secret: oldSecret })).status).toBe(200);
    expect(await claims(platform, { user_id: first.user.id })).toHaveLength(1);

    const second = await userWithPregeneratedWallet();
    const event = envelope(second.wallet.provider_wallet_id, second.wallet.address);
    const raw = JSON.stringify(event);
    const timestamp = now();
    const stranger = `whsec_${randomBytes(24).toString("base64")}`;
    const signature = `${signWalletClaim(stranger, timestamp, raw)} ${signWalletClaim(oldSecret, timestamp, raw)}`;
    expect((await deliver(platform, event, { raw, timestamp, signature })).status).toBe(200);
    expect(await claims(platform, { user_id: second.user.id })).toHaveLength(1);
  });

  it("answers a replay of the event id with 200 as a no-op", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const event = envelope(wallet.provider_wallet_id, wallet.address);
    expect((await deliver(platform, event)).status).toBe(200);
    const replay = await deliver(platform, { ...event, data: { ...event.data, claimedAt: "2027-01-01T00:00:00Z" } });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true });
    const rows = await claims(platform, { user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.claimed_at).toEqual(new Date("2026-11-21T10:00:00.000Z"));
  });

  it("accepts a delivery without webhook-id, keyed by the envelope id it mirrors; its replay, with or without the header, is a 200 no-op", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const event = envelope(wallet.provider_wallet_id, wallet.address);
    const response = await deliver(platform, event, { id: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    const rows = await claims(platform, { user_id: user.id });
    expect(rows.map((r) => r.event_id)).toEqual([event.id]);

    const replayed = { ...event, data: { ...event.data, claimedAt: "2027-01-01T00:00:00Z" } };
    for (const id of [null, event.id]) {
      const replay = await deliver(platform, replayed, { id });
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ received: true });
    }
    const after = await claims(platform, { user_id: user.id });
    expect(after).toHaveLength(1);
    expect(after[0]!.claimed_at).toEqual(new Date("2026-11-21T10:00:00.000Z"));
    // another event type without the header is a no-op too
    expect((await deliver(platform, { id: `evt_${randomUUID()}`, type: "wallet.created", createdAt: "2026-11-21T10:00:01Z" }, { id: null })).status).toBe(200);
  });

  it("records 20 concurrent deliveries of one event exactly once", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const event = envelope(wallet.provider_wallet_id, wallet.address);
    const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(platform, event)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const response of responses) expect(await response.json()).toEqual({ received: true });
    expect(await claims(platform, { event_id: event.id })).toHaveLength(1);
    expect(await claims(platform, { user_id: user.id })).toHaveLength(1);
  });

  it("answers a second event for an already claimed wallet with 200 and keeps the first claim", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const first = envelope(wallet.provider_wallet_id, wallet.address);
    expect((await deliver(platform, first)).status).toBe(200);
    expect((await deliver(platform, envelope(wallet.provider_wallet_id, wallet.address))).status).toBe(200);
    const rows = await claims(platform, { user_id: user.id });
    expect(rows.map((r) => r.event_id)).toEqual([first.id]);
  });

  it("answers an unknown wallet reference with 200 as a no-op", async () => {
    const event = envelope(`pw_${randomUUID()}`, randomAddress());
    const response = await deliver(platform, event);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(await claims(platform, { event_id: event.id })).toHaveLength(0);
  });

  it("answers other event types with 200 as no-ops, whatever their data, and without one", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    for (const event of [
      envelope(wallet.provider_wallet_id, wallet.address, { type: "wallet.created" }),
      { id: `evt_${randomUUID()}`, type: "user.updated", data: {}, createdAt: "2026-11-21T10:00:01Z" },
      // spec 2.8 names data.* for wallet claims only: another type may send none, or its own shape
      { id: `evt_${randomUUID()}`, type: "wallet.created", createdAt: "2026-11-21T10:00:01Z" },
      { id: `evt_${randomUUID()}`, type: "wallet.created", data: { walletId: 7, claimedAt: "yesterday", extra: [1] }, createdAt: "2026-11-21T10:00:01Z" },
      { id: `evt_${randomUUID()}`, type: "wallet.exported", data: "opaque", createdAt: "2026-11-21T10:00:01Z" },
    ]) {
      const response = await deliver(platform, event);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true });
    }
    expect(await claims(platform, { user_id: user.id })).toHaveLength(0);
    const list = await (await platform.api("/v0/wallets/pregenerated", { jwt: user.jwt })).json();
    expect(list.items[0].claimed_at).toBeNull();
  });

  it("answers 422 with validation items when the verified body is not the envelope", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const good = envelope(wallet.provider_wallet_id, wallet.address);
    const cases: [unknown, (string | number)[]][] = [
      [{ ...good, data: { ...good.data, walletId: undefined } }, ["body", "data", "walletId"]],
      [{ ...good, data: { ...good.data, claimedAt: "yesterday" } }, ["body", "data", "claimedAt"]],
      [{ ...good, createdAt: "21/11/2026" }, ["body", "createdAt"]],
      [{ ...good, createdAt: undefined }, ["body", "createdAt"]],
      [{ ...good, type: 42 }, ["body", "type"]],
      [{ ...good, data: undefined }, ["body", "data"]],
    ];
    for (const [body, loc] of cases) {
      const response = await deliver(platform, body as never, { id: good.id });
      expect(response.status).toBe(422);
      const problem = await response.json();
      const locs = problem.detail.map((item: { loc: unknown }) => item.loc);
      expect(locs).toContainEqual(loc);
      // one line per field, none for the schema's "data is checked for this type" rule itself
      expect(locs).not.toContainEqual(["body"]);
    }
    const notJson = await deliver(platform, undefined, { raw: "{not json", id: "x" });
    expect(notJson.status).toBe(422);
    const noId = await deliver(platform, { ...good, id: undefined }, { id: good.id });
    expect(noId.status).toBe(422);
    expect(await claims(platform, { user_id: user.id })).toHaveLength(0);
  });

  it("answers 401 WHK-401-001 with one fixed detail for every unauthentic delivery, echoing nothing", async () => {
    const { user, wallet } = await userWithPregeneratedWallet();
    const event = envelope(wallet.provider_wallet_id, wallet.address);
    const raw = JSON.stringify(event);
    const stranger = `whsec_${randomBytes(24).toString("base64")}`;
    const timestamp = now();
    // a minute past the 300 s tolerance either way, so a slow run cannot bring either back inside
    // it; the exact boundary is the unit test's (wallet-claim-signature.test.ts), on a fixed clock
    const stale = String(Number(timestamp) - 360);
    const future = String(Number(timestamp) + 360);
    const cases: DeliveryOptions[] = [
      { signature: null },
      { signature: "" },
      { signature: "v1,bm90LWEtc2lnbmF0dXJl" },
      { secret: stranger },
      { signature: signWalletClaim(newSecret, timestamp, raw).replace("v1,", "v2,"), timestamp },
      { timestamp: stale },
      { timestamp: future },
      { timestamp: "not-a-time", signature: signWalletClaim(newSecret, "not-a-time", raw) },
      { timestamp: "" },
      // a valid signature over another body
      { signature: signWalletClaim(newSecret, timestamp, raw.replace("EVM", "EVX")), timestamp },
      // webhook-id is not signed: one that differs from the envelope id is refused (401)
      { id: "evt_other" },
      { id: "" },
    ];
    for (const options of cases) {
      const response = await deliver(platform, event, { raw, ...options });
      expect(response.status, JSON.stringify(options)).toBe(401);
      const text = await response.text();
      const problem = JSON.parse(text);
      expect(problem).toMatchObject({ status: 401, error_code: "WHK-401-001", detail: FIXED_DETAIL, instance: PATH });
      if (options.signature) expect(text).not.toContain(options.signature.slice(3));
      if (options.timestamp) expect(text).not.toContain(options.timestamp);
    }
    // a missing timestamp header
    const headers = { "content-type": "application/json", "webhook-id": event.id, "webhook-signature": signWalletClaim(newSecret, timestamp, raw) };
    const missing = await fetch(platform.urls.platform + PATH, { method: "POST", headers, body: raw });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error_code: "WHK-401-001", detail: FIXED_DETAIL });
    expect(await claims(platform, { user_id: user.id })).toHaveLength(0);
  });

  it("answers 401 to every delivery when no secret is configured", async () => {
    const bare = await startTestPlatform();
    stops.push(() => bare.stop());
    const { user, wallet } = await userWithPregeneratedWallet(bare);
    const response = await deliver(bare, envelope(wallet.provider_wallet_id, wallet.address));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error_code: "WHK-401-001", detail: FIXED_DETAIL });
    expect(await claims(bare, { user_id: user.id })).toHaveLength(0);
  });

  it("keeps record_wallet_claim to the adapter's internal principal: a user gets 403", async () => {
    const { jwt } = await platform.createUser();
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({
        query: `mutation { record_wallet_claim(input: { event_id: "e", type: "wallet.pregen_claimed", created_at: "2026-11-21T10:00:00Z" }) { outcome } }`,
      }),
    });
    const body = await response.json();
    expect(body.errors?.[0]?.extensions).toMatchObject({ status: 403, error_code: "USR-403-001" });
  });

  it("is documented in /openapi.json with the signing scheme, tolerance and responses", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    const operation = document.paths[PATH].post;
    expect(operation.description).toContain("{webhook-timestamp}.{raw body}");
    expect(operation.description).toContain("300 seconds");
    expect(operation.description).toContain("`webhook-id`: mirrors the envelope `id` and may be left out");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
    // data and its fields are required for a wallet claim only
    const body = operation.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["id", "type", "createdAt"]);
    expect(body.if).toEqual({ properties: { type: { const: "wallet.pregen_claimed" } }, required: ["type"] });
    expect(body.then.required).toEqual(["data"]);
    expect(body.then.properties.data.required).toEqual(["walletId", "walletAddress", "walletType", "claimedAt"]);
    expect(document.paths["/v0/wallets/pregenerated"].post).toBeDefined();
  });

  // only a server database can go away; PGlite lives in the process
  it.skipIf(!onPostgres)("answers 5xx while PostgreSQL is down, records nothing, and records the retry once", async () => {
    const cluster = await startPostgresCluster();
    stops.push(() => cluster.destroy());
    const own = await startTestPlatform({ DATABASE_URL: cluster.adminUrl, WALLET_CLAIM_WEBHOOK_SECRETS: newSecret });
    stops.push(() => own.stop());
    const { user, wallet } = await userWithPregeneratedWallet(own);
    const event = envelope(wallet.provider_wallet_id, wallet.address);

    await cluster.stop();
    const down = await deliver(own, event);
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(down.status).toBeLessThan(600);

    await cluster.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await deliver(own, event)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect(await claims(own, { event_id: event.id })).toHaveLength(1);
    expect((await deliver(own, event)).status).toBe(200);
    const rows = await claims(own, { user_id: user.id });
    expect(rows).toHaveLength(1);
    const pregenerated = await usersDb(own).pregeneratedWallet.findMany({ where: { user_id: user.id } });
    expect(pregenerated[0]!.claimed_at).toEqual(new Date("2026-11-21T10:00:00.000Z"));
  });
});
