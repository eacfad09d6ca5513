import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import type { MovementInput } from "../../../subgraphs/finance/transactions/record-movement.ts";
import { bookMovement } from "../../support/finance-db.ts";
import { transactionRoutes } from "../../../rest-adapter/routes/transactions.ts";
import { TRANSACTION_FIELDS } from "../../../rest-adapter/resources/resources.generated.ts";
import { applyTimestampFormat } from "../../../rest-adapter/route-kit/timestamps.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { ensureAsset, userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 30: GET /v0/transactions writes the page's stored items as their text (lib/json-text.ts),
// not parsed, walked and stringified again. Its answer must be, byte for byte, the one built the
// old way: the same operation's data as objects (here through /graphql, where items stay objects)
// with the route's _links, written by JSON.stringify.

let platform: TestPlatform;
let db: FinanceDb;
let user: Awaited<ReturnType<typeof userWithWallet>>;

const route = transactionRoutes.find((r) => r.operationId === "listTransactions")!;
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const usd = { currency: "USD", decimals: 2 };

type Query = Record<string, string | number | boolean>;

/** A movement booked directly in the ledger (test/support/finance-db.ts): pending unless `input` says otherwise. */
function seed(user_id: string, wallet_id: number, input: Partial<MovementInput> & { at: number }) {
  return bookMovement(db, user_id, wallet_id, { status: "pending", ...input });
}

async function rest(jwt: string, query: Query, headers: Record<string, string> = {}) {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
  const response = await platform.api(`/v0/transactions?${search}`, { jwt, headers });
  expect(response.status).toBe(200);
  return { body: await response.text(), type: response.headers.get("content-type"), length: response.headers.get("content-length") };
}

/** `operation` with the route's variables for `query`, through /graphql, as sent. */
async function graphqlText(jwt: string, operation: string, query: Query): Promise<string> {
  const response = await fetch(platform.urls.graphql, {
    method: "POST",
    headers: { "content-type": "application/json", "x-platform-jwt": jwt },
    body: JSON.stringify({ query: operation, variables: route.variables!({ query, params: {}, body: undefined, headers: {} } as never) }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

// the route's operation with the items selected through a fragment: the same answer, never written from the stored text
const ITEMS = `items { ${TRANSACTION_FIELDS} }`;
const AS_OBJECTS = `${route.operation.replace(ITEMS, "items { ...Item }")} fragment Item on Transaction { ${TRANSACTION_FIELDS} }`;

/** The page as the route's operation answers it, as objects. */
async function graphqlPage(jwt: string, query: Query): Promise<Record<string, unknown>> {
  const { data, errors } = JSON.parse(await graphqlText(jwt, AS_OBJECTS, query));
  expect(errors).toBeUndefined();
  return data.transactions;
}

/** The REST answer as the old path made it: the operation's objects, _links added, through the timestamp pass, by JSON.stringify. */
async function expectOldAnswer(jwt: string, query: Query): Promise<string> {
  const answer = await rest(jwt, query);
  const page = await graphqlPage(jwt, query);
  const links = JSON.parse(answer.body)._links;
  expect(answer.body).toBe(JSON.stringify({ ...page, _links: links }));
  expect(answer.type).toBe("application/json; charset=utf-8");
  expect(answer.length).toBe(String(Buffer.byteLength(answer.body)));
  const iso = await rest(jwt, query, { "x-timestamp-format": "iso8601" });
  expect(iso.body).toBe(JSON.stringify(applyTimestampFormat({ ...page, _links: links }, "iso8601")));
  expect(iso.type).toBe(answer.type);
  return answer.body;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "ETH", 18);
  user = await userWithWallet(platform);
  // a generated history (every type, status and source, histories of each step)
  for (const statement of feedSeedStatements({ user_id: user.id, count: 120, wallet_ids: [user.wallet_id], id_prefix: "wire", newest: new Date(T0) })) await db.$executeRawUnsafe(statement);
  // and what it does not write: text that JSON escapes, trailing zeros, sub-millisecond instants, a history walked and failed
  const s = (input: Partial<MovementInput> & { at: number }) => seed(user.id, user.wallet_id, input);
  const odd = await s({ at: T0 + HOUR, type: "card_purchase", direction: "out", amount: "12.50", unit: usd, source: { kind: "card", id: "crd_wire" }, amount_usd: "12.500", merchant: { name: 'Café "Nero" \\ 東京 😀 \u0001\t\n\u2028</script>', mcc: "5814" }, category: "restaurants" });
  const zeros = await s({ at: T0 + 2 * HOUR, amount: "0.100000000000000000", amount_usd: "300.10" });
  await s({ at: T0 + 2 * HOUR, amount: "5", amount_usd: null, counterparty: "0xabc\\def\"" });
  await db.$executeRawUnsafe(`UPDATE finance.transactions SET note = $1, "timestamp" = "timestamp" + interval '0.123456 second', updated_at = '2026-01-01 02:00:00.999999+00' WHERE id = $2`, 'split "50/50" \\ \r\u001f ünïcode', odd.id);
  for (const [from, to] of [["pending", "processing"], ["processing", "failed"]] as const) {
    await db.$executeRawUnsafe(`UPDATE finance.transactions SET status = $1 WHERE id = $2`, to, odd.id);
    await db.$executeRawUnsafe(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to", changed_at) VALUES ($1, $2, $3, now() + interval '0.000700 second')`, odd.id, from, to);
  }
  await db.$executeRawUnsafe(`UPDATE finance.transactions SET status = 'completed' WHERE id = $1`, zeros.id);
});
afterAll(() => platform?.stop());

describe("GET /v0/transactions written from the stored items' text", () => {
  it("answers every page as the old path, byte for byte, with and without meta", async () => {
    const seen = new Set<string>();
    for (const meta of [false, true])
      for (let offset = 0; offset < 130; offset += 25) {
        const page = JSON.parse(await expectOldAnswer(user.jwt, { limit: 25, offset, meta }));
        for (const item of page.items) seen.add(item.id);
      }
    expect(seen.size).toBe(123);
    // the default limit, the largest and a page past the end
    const queries: Query[] = [{}, { meta: true }, { limit: 200 }, { limit: 200, meta: true }, { offset: 500, meta: true }];
    for (const query of queries) await expectOldAnswer(user.jwt, query);
  });

  it("answers every filter as the old path, byte for byte", async () => {
    const filters: Query[] = [
      { direction: "out" },
      { status: "failed" },
      { status: "completed", direction: "in" },
      { type: "card_purchase" },
      { category: "restaurants" },
      { wallet_id: user.wallet_id },
      { card_id: "crd_wire" },
      { period_start: T0 - 30 * 24 * HOUR, period_end: T0 + 3 * HOUR },
      { period_start: new Date(T0).toISOString() },
      { amount_min: "0.1", amount_max: "12.5" },
    ];
    for (const filter of filters) for (const meta of [false, true]) for (const page of [{ limit: 7 }, { limit: 7, offset: 7 }] as Query[]) await expectOldAnswer(user.jwt, { ...filter, ...page, meta });
  });

  it("escapes and formats as JSON.stringify does: quotes, backslashes, control and non-ASCII characters, decimals, instants", async () => {
    const body = await expectOldAnswer(user.jwt, { limit: 3, meta: true });
    const items: Record<string, any>[] = JSON.parse(body).items;
    const odd = items[2]!;
    // the two at the same instant, in id order
    const zeros = items.find((item) => item.amount === "0.1")!;
    const noPrice = items.find((item) => item.amount === "5")!;
    expect(odd).toMatchObject({ amount: "12.5", amount_usd: "12.5", status: "failed", note: 'split "50/50" \\ \r\u001f ünïcode' });
    expect(odd.merchant.name).toBe('Café "Nero" \\ 東京 😀 \u0001\t\n\u2028</script>');
    expect(odd.status_history.map((change: { to: string }) => change.to)).toEqual(["pending", "processing", "failed"]);
    // timestamptz(3): the instant's microseconds were rounded to the millisecond as it was stored
    expect(odd.timestamp).toBe(T0 + HOUR + 123);
    expect(odd.updated_at).toBe(T0 + 2 * HOUR + 1000);
    expect(zeros).toMatchObject({ amount: "0.1", amount_usd: "300.1", status: "completed" });
    expect(noPrice).toMatchObject({ amount_usd: null, counterparty: '0xabc\\def"' });
    expect(body).toContain('"name":"Café \\"Nero\\" \\\\ 東京 😀 \\u0001\\t\\n\u2028</script>"');
  });

  it("answers POST /graphql with the route's operation as Apollo Server first answered it, byte for byte, on every page", async () => {
    expect(route.operation).toContain(ITEMS);
    const queries: Query[] = [{ meta: true }, { limit: 25, offset: 25, meta: false }, { direction: "out", limit: 9, meta: true }];
    for (const [n, query] of queries.entries()) {
      // a text of its own, which Apollo Server answers first; the next ones are the known operation's (gateway/known-operations.ts), written from the stored text
      const operation = `${route.operation} # pages ${n}`;
      const first = await graphqlText(user.jwt, operation, query);
      expect(JSON.parse(first).errors).toBeUndefined();
      for (let i = 0; i < 3; i++) expect(await graphqlText(user.jwt, operation, query)).toBe(first);
      expect(first).toBe(JSON.stringify({ data: { transactions: await graphqlPage(user.jwt, query) } }) + "\n");
    }
  });

  it("answers items selecting only some leaves, parsed from those values' text, as from the whole items", async () => {
    // the bench's three-subgraph selection, every leaf, and a few in another order; through a
    // fragment the page's items are parsed whole (feed-page.ts: projectStoredItems)
    const selections = ["id type direction amount currency status timestamp", TRANSACTION_FIELDS.replace(/\w+ \{[^}]*\}/g, ""), "__typename note timestamp id description counterparty amount_usd"];
    for (const [n, fields] of selections.entries())
      for (const page of ["limit: 25, offset: 0", "limit: 3", "limit: 10", "limit: 25, offset: 100"]) {
        const whole = await graphqlText(user.jwt, `{ transactions(page: { ${page} }) { items { ...Leaves } pagination { total } } } fragment Leaves on Transaction { ${fields} }`, {});
        expect(JSON.parse(whole).errors).toBeUndefined();
        // the first answer is Apollo Server's, the next ones the known operation's, compiled
        const direct = `{ transactions(page: { ${page} }) { items { ${fields} } pagination { total } } } # leaves ${n}`;
        for (let i = 0; i < 3; i++) expect(await graphqlText(user.jwt, direct, {})).toBe(whole);
        // User.transactions: the gateway's entity fetch, as in the bench's three-subgraph query
        const viaUser = `{ me { id transactions(page: { ${page} }) { items { ${fields} } pagination { total } } } } # leaves ${n}`;
        for (let i = 0; i < 3; i++) expect(JSON.stringify(JSON.parse(await graphqlText(user.jwt, viaUser, {})).data.me.transactions)).toBe(JSON.stringify(JSON.parse(whole).data.transactions));
      }
    const odd = JSON.parse(await graphqlText(user.jwt, "{ transactions(page: { limit: 3 }) { items { id note timestamp } } }", {})).data.transactions.items[2];
    expect(odd).toEqual({ id: expect.any(String), note: 'split "50/50" \\ \r\u001f ünïcode', timestamp: T0 + HOUR + 123 });
  });

  it("writes the stored text as it is (a stored item spaced by hand comes out spaced); GraphQL answers it parsed", async () => {
    const other = await userWithWallet(platform);
    const { id } = await seed(other.id, other.wallet_id, { at: T0 });
    // feed_item alone: its trigger does not rebuild it
    await db.$executeRawUnsafe(`UPDATE finance.transactions SET feed_item = replace(feed_item::text, '{"id":', '{"id" : ')::json WHERE id = $1`, id);
    // the first runs go through the gateway, which answers objects, until it learnt the operation's plan
    let last = "";
    for (let i = 0; i < 4; i++) last = (await rest(other.jwt, { meta: true })).body;
    expect(last).toContain(`"items":[{"id" : "${id}"`);
    const page = await graphqlPage(other.jwt, { meta: true });
    expect(JSON.parse(last)).toEqual({ ...page, _links: JSON.parse(last)._links });
    // the ISO 8601 answer is the timestamp pass's, over objects
    expect((await rest(other.jwt, { meta: true }, { "x-timestamp-format": "iso8601" })).body).toContain(`"items":[{"id":"${id}"`);
    // POST /graphql: Apollo Server's first answer parsed it, the known operation's next ones write it
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) answers.push(await graphqlText(other.jwt, `${route.operation} # spaced`, { meta: true }));
    expect(answers[0]).toContain(`"items":[{"id":"${id}"`);
    expect(answers[2]).toContain(`"items":[{"id" : "${id}"`);
  });
});
