import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { isLuhnValid } from "../../../subgraphs/finance/cards/sandbox-card-issuer.ts";
import { CARD_REVEALS_PER_WINDOW } from "../../../lib/contracts/cards.ts";
import { capturingLogger } from "../../support/log-capture.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { approvedUser, ensureAsset } from "../../support/finance.ts";

// Issue 10, secure card details (spec 2.10): a challenge signed by the primary EOA (EIP-191), the
// details once with Cache-Control: no-store, JWT only, limited per card, audited, never logged.

let platform: TestPlatform;
let db: FinanceDb;
const log = capturingLogger("trace");

beforeAll(async () => {
  // the production logger at trace level, written where the test reads it
  platform = await startTestPlatform({}, { logger: log.logger });
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "USDC", 6);
});
afterAll(() => platform?.stop());

type User = Awaited<ReturnType<typeof approvedUser>>;

async function issue(user: User): Promise<{ id: string; last_four: string }> {
  const response = await platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } } });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

const details = (cardId: string) => `/v0/cards/${cardId}/secure-details`;

async function challenge(user: { jwt: string }, cardId: string) {
  const response = await platform.api(`${details(cardId)}/challenge`, { method: "POST", jwt: user.jwt });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json() as Promise<{ id: string; card_id: string; address: string; message: string; expires_at: number; _links: Record<string, { href: string }> }>;
}

function reveal(user: { jwt?: string; pat?: string }, cardId: string, body: { challenge_id: string; signature: string }) {
  return platform.api(details(cardId), { method: "POST", ...user, json: body, headers: { "user-agent": "secure-details-test/1.0" } });
}

/** A fresh challenge for the card, signed by `signer` (the holder's primary EOA unless said otherwise). */
async function signedChallenge(user: User, cardId: string, signer = user.account) {
  const issued = await challenge(user, cardId);
  return { challenge_id: issued.id, signature: await signer.signMessage({ message: issued.message }) };
}

const code = async (response: Response) => (await response.json()).error_code;

describe("revealing a card's details", () => {
  let user: User;
  let card: { id: string; last_four: string };
  let revealed: { number: string; cvv: string; expiry_month: number; expiry_year: number };

  beforeAll(async () => {
    user = await approvedUser(platform);
    card = await issue(user);
  });

  it("answers a challenge for the primary EOA naming the host, the last four, the challenge and its expiry", async () => {
    const before = Date.now();
    const issued = await challenge(user, card.id);
    expect(issued.id).toMatch(/^cdc_/);
    expect(issued.card_id).toBe(card.id);
    expect(issued.address).toBe(user.address);
    expect(issued.expires_at).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1_000);
    expect(issued.expires_at).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(issued.message.startsWith(`${new URL(platform.config.publicBaseUrl).host} asks you to reveal`)).toBe(true);
    expect(issued.message).toContain(`ending in ${card.last_four}`);
    expect(issued.message).toContain(`Challenge ID: ${issued.id}`);
    expect(issued.message).toContain(`Expires At: ${new Date(issued.expires_at).toISOString()}`);
    expect(issued._links.reveal!.href).toBe(`${platform.config.publicBaseUrl}${details(card.id)}`);
  });

  it("reveals the number, CVV and expiry once for a signed challenge, with Cache-Control: no-store", async () => {
    const proof = await signedChallenge(user, card.id);
    const response = await reveal(user, card.id, proof);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    revealed = await response.json();
    expect(Object.keys(revealed).sort()).toEqual(["cvv", "expiry_month", "expiry_year", "number"]);
    expect(isLuhnValid(revealed.number)).toBe(true);
    expect(revealed.number.endsWith(card.last_four)).toBe(true);
    expect(revealed.cvv).toMatch(/^[0-9]{3}$/);
    const now = new Date();
    expect(revealed.expiry_year * 12 + revealed.expiry_month).toBeGreaterThan(now.getUTCFullYear() * 12 + now.getUTCMonth() + 1);

    // single use: the same proof again is refused
    const replay = await reveal(user, card.id, proof);
    expect(replay.status).toBe(403);
    expect(await code(replay)).toBe("CRD-403-002");
    expect(replay.headers.get("cache-control")).toBe("no-store");
  });

  it("records every reveal in an audit trail the holder lists, newest first", async () => {
    const response = await platform.api(`${details(card.id)}/reveals`, { jwt: user.jwt });
    expect(response.status).toBe(200);
    const page = await response.json();
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
    expect(page.items[0]).toMatchObject({ card_id: card.id, method: "eip191", ip: expect.any(String), user_agent: "secure-details-test/1.0" });
    expect(page.items[0].id).toMatch(/^crv_/);
    expect(JSON.stringify(page)).not.toContain(revealed.number);
  });

  it("never shows the number or CVV elsewhere: the card over REST and GraphQL, the database, the logs", async () => {
    const rest = await (await platform.api(`/v0/cards/${card.id}`, { jwt: user.jwt })).text();
    const list = await (await platform.api("/v0/cards", { jwt: user.jwt })).text();
    const graphql = await (
      await fetch(platform.urls.graphql, {
        method: "POST",
        headers: { "content-type": "application/json", "x-platform-jwt": user.jwt },
        body: JSON.stringify({ query: `{ card(id: "${card.id}") { id last_four status } cards { id last_four } }` }),
      })
    ).text();
    expect(graphql).toContain(card.last_four);
    const row = JSON.stringify(await db.card.findUnique({ where: { id: card.id } }));
    for (const text of [rest, list, graphql, row]) {
      expect(text).not.toContain(revealed.number);
      expect(text).not.toContain(`"cvv":"${revealed.cvv}"`);
    }
    const logged = log.lines.join("");
    expect(logged).toContain(card.id);
    expect(logged).not.toContain(revealed.number);
    expect(logged).not.toContain(`"${revealed.cvv}"`);
  });
});

describe("proofs that do not count (403 CRD-403-002)", () => {
  let user: User;
  let other: User;
  let card: { id: string };

  beforeAll(async () => {
    [user, other] = await Promise.all([approvedUser(platform), approvedUser(platform)]);
    card = await issue(user);
  });

  async function refused(body: { challenge_id: string; signature: string }) {
    const response = await reveal(user, card.id, body);
    expect(response.status, await response.clone().text()).toBe(403);
    expect(await code(response)).toBe("CRD-403-002");
  }

  it("refuses an unknown challenge", async () => {
    const { signature } = await signedChallenge(user, card.id);
    await refused({ challenge_id: "cdc_missing", signature });
  });

  it("refuses a signature by any key but the primary EOA, or over another text", async () => {
    const issued = await challenge(user, card.id);
    await refused({ challenge_id: issued.id, signature: await other.account.signMessage({ message: issued.message }) });
    await refused({ challenge_id: issued.id, signature: await user.account.signMessage({ message: `${issued.message}\n` }) });
    // the wrong answers did not spend it
    const response = await reveal(user, card.id, { challenge_id: issued.id, signature: await user.account.signMessage({ message: issued.message }) });
    expect(response.status).toBe(200);
  });

  it("refuses another user's challenge, even signed by them, and a challenge of another card", async () => {
    const theirCard = await issue(other);
    await refused(await signedChallenge(other, theirCard.id));
    const mySecondCard = await issue(user);
    await refused(await signedChallenge(user, mySecondCard.id));
  });

  it("refuses an expired challenge", async () => {
    const proof = await signedChallenge(user, card.id);
    await db.cardSecureChallenge.update({ where: { id: proof.challenge_id }, data: { expires_at: new Date(Date.now() - 1) } });
    await refused(proof);
  });

  it("spends a challenge once when two answers race", async () => {
    const proof = await signedChallenge(user, card.id);
    const statuses = (await Promise.all([reveal(user, card.id, proof), reveal(user, card.id, proof)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 403]);
  });
});

describe("who may reveal", () => {
  let user: User;
  let card: { id: string };
  let pat: string;

  beforeAll(async () => {
    user = await approvedUser(platform);
    card = await issue(user);
    const created = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: user.jwt, json: { name: "all", scopes: ["read", "write"] } });
    pat = (await created.json()).token;
  });

  it("refuses a personal access token on every secure-details route (403 USR-403-001)", async () => {
    const proof = await signedChallenge(user, card.id);
    const answers = [
      await platform.api(`${details(card.id)}/challenge`, { method: "POST", pat }),
      await reveal({ pat }, card.id, proof),
      await platform.api(`${details(card.id)}/reveals`, { pat }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(await code(answer)).toBe("USR-403-001");
    }
    // and the proof was not spent by the refused attempt
    expect((await reveal(user, card.id, proof)).status).toBe(200);
  });

  it("needs a credential (401)", async () => {
    expect((await platform.api(`${details(card.id)}/challenge`, { method: "POST" })).status).toBe(401);
  });

  it("hides other users' cards (404 CRD-404-001)", async () => {
    const stranger = await approvedUser(platform);
    const proof = await signedChallenge(user, card.id);
    const answers = [
      await platform.api(`${details(card.id)}/challenge`, { method: "POST", jwt: stranger.jwt }),
      await reveal(stranger, card.id, proof),
      await platform.api(`${details(card.id)}/reveals`, { jwt: stranger.jwt }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await code(answer)).toBe("CRD-404-001");
    }
  });

  it("refuses a closed card (409 CRD-409-001) but keeps its audit trail", async () => {
    const proof = await signedChallenge(user, card.id);
    expect((await platform.api(`/v0/cards/${card.id}/close`, { method: "POST", jwt: user.jwt })).status).toBe(200);
    for (const answer of [await platform.api(`${details(card.id)}/challenge`, { method: "POST", jwt: user.jwt }), await reveal(user, card.id, proof)]) {
      expect(answer.status).toBe(409);
      expect(await code(answer)).toBe("CRD-409-001");
    }
    const trail = await (await platform.api(`${details(card.id)}/reveals`, { jwt: user.jwt })).json();
    expect(trail.pagination.total).toBe(1);
  });
});

describe("the per-card limit", () => {
  it(`allows ${CARD_REVEALS_PER_WINDOW} reveals per card and hour, then 429 CRD-429-001 with Retry-After; the trail pages`, async () => {
    const user = await approvedUser(platform);
    const card = await issue(user);
    for (let i = 0; i < CARD_REVEALS_PER_WINDOW; i++) expect((await reveal(user, card.id, await signedChallenge(user, card.id))).status).toBe(200);

    const proof = await signedChallenge(user, card.id);
    const limited = await reveal(user, card.id, proof);
    expect(limited.status).toBe(429);
    expect(await code(limited)).toBe("CRD-429-001");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);

    // another card of the same holder has its own budget
    const second = await issue(user);
    expect((await reveal(user, second.id, await signedChallenge(user, second.id))).status).toBe(200);

    // an hour on, the oldest reveals leave the window and the unspent challenge works
    await db.cardReveal.updateMany({ where: { card_id: card.id }, data: { created_at: new Date(Date.now() - 61 * 60_000) } });
    expect((await reveal(user, card.id, proof)).status).toBe(200);

    const first = await (await platform.api(`${details(card.id)}/reveals?limit=2`, { jwt: user.jwt })).json();
    expect(first.pagination).toEqual({ limit: 2, offset: 0, total: CARD_REVEALS_PER_WINDOW + 1 });
    expect(first.items[0].challenge_id).toBe(proof.challenge_id);
    expect(first._links.next.href).toContain("offset=2");
    const times = first.items.map((item: { created_at: number }) => item.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
