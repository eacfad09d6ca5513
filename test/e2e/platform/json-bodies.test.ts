import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../../lib/json-body.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 27, items 1 and 4: JSON bodies are read by one set of rules on every listener. A body
// nested 10,000 deep answered 500 (a recursive walk over it); the money routes booked bodies sent
// as text, in another charset, with a byte order mark, or naming `amount` twice (the last won).

let platform: TestPlatform;
let user: { jwt: string; wallet: number };

beforeAll(async () => {
  platform = await startTestPlatform();
  const created = await platform.createUser();
  const wallets = (await (await platform.api("/v0/wallets", { jwt: created.jwt })).json()).items as { id: number; type: string }[];
  user = { jwt: created.jwt, wallet: wallets.find((wallet) => wallet.type === "EOA")!.id };
  expect((await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet, asset: "USDC", amount: "100" } })).status).toBe(201);
});
afterAll(() => platform?.stop());

/** What the user holds and how many movements they have: a refused request changes neither. */
async function ledger() {
  const assets = (await (await platform.api(`/v0/wallets/${user.wallet}/assets`, { jwt: user.jwt })).json()).assets as { asset: { symbol: string }; balance: string }[];
  const transactions = (await (await platform.api("/v0/transactions?limit=200", { jwt: user.jwt })).json()).items as unknown[];
  return { balances: assets.map((asset) => [asset.asset.symbol, asset.balance]), transactions: transactions.length };
}

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** `body` sent as it is, with exactly `headers` besides the credential (none: no Content-Type at all). */
async function post(path: string, body: string | Buffer, headers: Record<string, string>) {
  const response = await fetch(platform.urls.platform + path, { method: "POST", headers: { "x-platform-jwt": user.jwt, ...headers }, body: typeof body === "string" ? Buffer.from(body) : body });
  return { status: response.status, body: await response.json() };
}

describe.each(["/v0/sandbox/deposits", "/v0/sandbox/payments"])("POST %s books nothing from a body it cannot read as one JSON value", (path) => {
  const valid = () => JSON.stringify({ wallet_id: user.wallet, asset: "USDC", amount: "1" });
  const cases: [string, () => string | Buffer, Record<string, string>, number, string, RegExp | undefined][] = [
    ["no Content-Type", valid, {}, 415, "GEN-415-001", undefined],
    ["text/plain, what fetch sends a string as", valid, { "content-type": "text/plain;charset=UTF-8" }, 415, "GEN-415-001", undefined],
    ["charset=utf-16 on UTF-8 bytes", valid, { "content-type": "application/json; charset=utf-16" }, 415, "GEN-415-001", undefined],
    ["a junk charset", valid, { "content-type": "application/json; charset=junk" }, 415, "GEN-415-001", undefined],
    ["a byte order mark", () => Buffer.concat([BOM, Buffer.from(valid())]), { "content-type": "application/json" }, 422, "GEN-422-001", /byte order mark/],
    ["latin-1 bytes", () => Buffer.from(valid().replace('"1"', '"1","description":"caf\xe9"'), "latin1"), { "content-type": "application/json" }, 422, "GEN-422-001", /UTF-8/],
    ["amount twice, -1 then 25.5", () => `{"amount":"-1","wallet_id":${user.wallet},"asset":"USDC","amount":"25.5"}`, { "content-type": "application/json" }, 422, "GEN-422-001", /Duplicate key 'amount'/],
    [`a description nested 10,000 deep`, () => valid().replace(/}$/, `,"description":${nested(10_000)}}`), { "content-type": "application/json" }, 422, "GEN-422-001", /more than 64 levels/],
    ["a body nested 10,000 deep", () => nested(10_000), { "content-type": "application/json" }, 422, "GEN-422-001", /more than 64 levels/],
  ];

  it.each(cases)("%s", async (_name, body, headers, status, code, reason) => {
    const before = await ledger();
    const answer = await post(path, body(), headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.error_code).toBe(code);
    if (reason) expect(answer.body.detail).toEqual([expect.objectContaining({ type: "json_invalid", loc: ["body"], ctx: { error: expect.stringMatching(reason) } })]);
    expect(await ledger()).toEqual(before);
  });

  it("still books UTF-8 JSON declared as such in any spelling, one key repeated with the same value included", async () => {
    for (const contentType of ["application/json", "application/json; charset=utf-8", 'application/json; charset="UTF-8"']) {
      const answer = await post(path, valid(), { "content-type": contentType });
      expect(answer.status, contentType).toBe(201);
    }
    expect((await post(path, `{"amount":"1","wallet_id":${user.wallet},"asset":"USDC","amount":"1"}`, { "content-type": "application/json" })).status).toBe(201);
  });
});

describe("the other listeners read JSON bodies by the same rules", () => {
  it(`the identity host: 422 json_invalid for a body nested deeper than ${MAX_JSON_DEPTH} or a duplicate key, 415 for another charset`, async () => {
    const bearer = await platform.dashboard.sign({ sub: "json-rules" });
    const send = (body: string, contentType = "application/json") =>
      platform.identity("/v0/organisations", { method: "POST", bearer, headers: { "content-type": contentType }, body }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const deep = await send(`{"name":"Deep Ltd","contact_email":${nested(10_000)}}`);
    expect(deep).toMatchObject({ status: 422, body: { error_code: "GEN-422-001", detail: [{ type: "json_invalid", loc: ["body"] }] } });
    const twice = await send('{"name":"One Ltd","name":"Two Ltd"}');
    expect(twice).toMatchObject({ status: 422, body: { detail: [{ type: "json_invalid", ctx: { error: expect.stringContaining("'name'") } }] } });
    expect((await send('{"name":"Wide Ltd"}', "application/json; charset=iso-8859-1")).status).toBe(415);
    expect((await send('{"name":"Fine Ltd"}')).status).toBe(201);
  });

  it("/graphql: 400 for a deep or duplicate-key body, 415 for another charset or text/plain, and Apollo's clients still work", async () => {
    const graphql = (body: string | Buffer, contentType: string) =>
      fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": contentType }, body }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const query = JSON.stringify({ query: "{ __typename }" });
    expect(await graphql(query, "application/json")).toMatchObject({ status: 200, body: { data: { __typename: "Query" } } });
    expect(await graphql(query, "application/json; charset=utf-8")).toMatchObject({ status: 200 });
    const deep = await graphql(`{"query":"{ __typename }","variables":{"v":${nested(10_000)}}}`, "application/json");
    expect(deep).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringMatching(/more than 64 levels/), extensions: { code: "GEN-400-001" } }] } });
    const twice = await graphql('{"query":"{ __typename }","query":"mutation { siwe_nonce { nonce } }"}', "application/json");
    expect(twice).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringContaining("'query'") }] } });
    expect((await graphql(query, "application/json; charset=utf-16")).status).toBe(415);
    // a simple request (no CORS preflight) cannot run an operation: refused before Apollo's CSRF check, as before it
    expect((await graphql(query, "text/plain")).status).toBe(415);
  });
});
