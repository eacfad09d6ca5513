import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KNOWN_ACCEPT_VALUES, KnownOperations } from "../../../gateway/known-operations.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken } from "../../support/route-cases.ts";

// Queries POSTed to /graphql again are answered without Apollo Server's pipeline
// (gateway/known-operations.ts). Each request here is sent several times: the first is Apollo
// Server's answer, the later ones the known path's where it applies; status, headers and body
// must be the same bytes.
const answered: boolean[] = [];
const answer = KnownOperations.prototype.answer;
vi.spyOn(KnownOperations.prototype, "answer").mockImplementation(async function (this: KnownOperations, ...args) {
  const result = await answer.apply(this, args);
  answered.push(result !== undefined);
  return result;
});

let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "ETH", amount: "1.5" } });
  expect(deposit.status).toBe(201);
});
afterAll(() => platform?.stop());

const THREE_SUBGRAPHS = `{ me { id status wallets { id address chain_id } pints { active_count } transactions(page: { limit: 10 }) { items { id type amount currency } pagination { total } } } }`;

interface Sent {
  body: unknown;
  headers?: Record<string, string>;
  credential?: Record<string, string>;
}

/** What the client sees of an answer, but for the headers that differ per request. */
async function seen(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !["date", "x-request-id", "traceparent"].includes(name)));
  return { status: response.status, headers, body: await response.text() };
}

function post({ body, headers = {}, credential = { "x-platform-jwt": user.jwt } }: Sent): Promise<Response> {
  return fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", ...credential, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** Sends the request `times` times: every answer as the first (Apollo Server's), and whether the known path wrote each. */
async function repeated(sent: Sent, times = 3) {
  const from = answered.length;
  const answers = [];
  for (let run = 0; run < times; run++) answers.push(await seen(await post(sent)));
  for (const later of answers.slice(1)) expect(later).toEqual(answers[0]);
  return { first: answers[0]!, known: answered.slice(from) };
}

describe("a query POSTed again skips Apollo Server, with the same answer", () => {
  it("the three-subgraph query: Apollo Server's answer first, then the same bytes from the known path", async () => {
    const { first, known } = await repeated({ body: { query: THREE_SUBGRAPHS } });
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(first.body).data.me.transactions.pagination.total).toBe(1);
    expect(known).toEqual([false, true, true]);
  });

  it("each Accept value it answers gets the content type Apollo Server negotiates", async () => {
    let n = 0;
    for (const accept of KNOWN_ACCEPT_VALUES.keys()) {
      const sent: Sent = { body: { query: `query Accept${n++} { me { id } }` }, headers: accept === undefined ? {} : { accept } };
      const { first, known } = await repeated(sent, 2);
      expect(first.status, String(accept)).toBe(200);
      expect(known, String(accept)).toEqual([false, true]);
    }
    // any other Accept value stays Apollo Server's to negotiate
    const { first, known } = await repeated({ body: { query: "query AcceptOther { me { id } }" }, headers: { accept: "application/graphql-response+json;q=0.5, application/json" } });
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(known).toEqual([false, false, false]);
    const refused = await repeated({ body: { query: "query AcceptNone { me { id } }" }, headers: { accept: "text/csv" } });
    expect(refused.first.status).toBe(406);
  });

  it("variables and operation names: each run gets its own variables, and only the name it was learnt under", async () => {
    const query = "query Page($limit: Int!) { me { transactions(page: { limit: $limit }) { items { id } } } } query Me { me { id } }";
    const page = (limit: number) => post({ body: { query, operationName: "Page", variables: { limit } } });
    const first = await seen(await page(1));
    const from = answered.length;
    const again = await seen(await page(1));
    expect(again).toEqual(first);
    expect(answered.slice(from)).toEqual([true]);
    // its own variables: a limit the feed refuses is an error, which Apollo Server answers
    const refused = await seen(await page(0));
    expect(JSON.parse(refused.body).errors).toHaveLength(1);
    expect(answered.at(-1)).toBe(false);
    // the same text under another operation name is Apollo Server's
    const me = await repeated({ body: { query, operationName: "Me" } });
    expect(JSON.parse(me.first.body).data.me.id).toBe(user.id);
    expect(me.known).toEqual([false, false, false]);
  });

  it("answers with errors, bad variables and refused bodies stay Apollo Server's", async () => {
    const badVariable = await repeated({ body: { query: "query Bad($limit: Int!) { me { transactions(page: { limit: $limit }) { items { id } } } }", variables: { limit: "ten" } } });
    expect(badVariable.first.status).toBe(400);
    expect(badVariable.known).toEqual([false, false, false]);

    const notFound = await repeated({ body: { query: `{ wallet(id: 999999999) { id } }` } });
    expect(JSON.parse(notFound.first.body).errors).toHaveLength(1);
    expect(notFound.known).toEqual([false, false, false]);

    const stringVariables = await repeated({ body: { query: THREE_SUBGRAPHS, variables: "{}" } });
    expect(stringVariables.first.status).toBe(400);
    expect(stringVariables.known).toEqual([false, false, false]);

    const persisted = await repeated({ body: { query: THREE_SUBGRAPHS, extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } } });
    expect(persisted.first.status).toBe(400);
    expect(persisted.known).toEqual([false, false, false]);
  });

  it("mutations and an agent's queries are never answered by the known path", async () => {
    const mutation = `mutation { mark_notification_read(id: "00000000-0000-0000-0000-000000000000") { id } }`;
    const { known } = await repeated({ body: { query: mutation } });
    expect(known).toEqual([false, false, false]);

    const agent = await agentToken(platform, user.jwt, ["read:balances"]);
    const asAgent = await repeated({ body: { query: "{ me { id } }" }, credential: { "x-platform-token": agent } });
    expect(asAgent.first.status).toBe(200);
    expect(asAgent.known).toEqual([false, false, false]);
  });
});
