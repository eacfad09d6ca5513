import { buildSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { enumsWithinApi, SingleFetchShortcut } from "../../../gateway/single-fetch.ts";
import { TRANSACTION_FIELDS } from "../../../rest-adapter/resources/resources.generated.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Operations planned as one fetch from one in-process subgraph skip the gateway's plan execution:
// their second run must answer exactly what the gateway answered the first time.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;
// Apollo Gateway hands every plan it runs to `learn`: a run that bypasses it leaves no call
const planned = vi.spyOn(SingleFetchShortcut.prototype, "learn");

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "ETH", amount: "1.5" } });
  expect(deposit.status).toBe(201);
});
afterAll(() => platform?.stop());

async function twice(query: string, variables?: Record<string, unknown>) {
  const run = async () => {
    const response = await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": user.jwt }, body: JSON.stringify({ query, variables }) });
    return { status: response.status, body: await response.json() };
  };
  const before = planned.mock.calls.length;
  const first = await run();
  const second = await run();
  return { first, second, gatewayRuns: planned.mock.calls.length - before };
}

describe("the single-fetch shortcut", () => {
  it("answers a one-subgraph query from the subgraph after the gateway planned it once, with the same body", async () => {
    const { first, second, gatewayRuns } = await twice(`{ transactions(page: { limit: 5 }) { items { ${TRANSACTION_FIELDS} } pagination { total } meta { transaction_count } } }`);
    expect(gatewayRuns).toBe(1);
    expect(first.body.data.transactions.items).toHaveLength(1);
    expect(second).toEqual(first);
  });

  it("answers catalogue errors as the gateway does, serviceName included", async () => {
    const { first, second, gatewayRuns } = await twice('{ transaction(id: "txn_missing") { id } }');
    expect(gatewayRuns).toBe(1);
    expect(first.body.errors[0].extensions).toMatchObject({ error_code: "TXN-404-001", serviceName: "finance" });
    expect(second).toEqual(first);
  });

  it("refuses variables the public API refuses, as the gateway does", async () => {
    const { first, second } = await twice("query ($page: PageInput) { transactions(page: $page) { items { id } } }", { page: { limit: "many" } });
    expect(first.body.errors[0].message).toMatch(/\$page/);
    expect(second).toEqual(first);
  });

  it("leaves operations that span subgraphs, or ask for introspection, to the gateway's plan (run lean once learnt: gateway/plan-execution.ts)", async () => {
    const across = await twice("{ me { id transactions { pagination { total } } } }");
    expect(across.gatewayRuns).toBe(1);
    expect(across.second).toEqual(across.first);
    const introspection = await twice("{ __schema { queryType { name } } transactions { pagination { total } } }");
    expect(introspection.gatewayRuns).toBe(1);
    expect(introspection.second).toEqual(introspection.first);
    expect(introspection.second.body.data).toEqual({ __schema: { queryType: { name: "Query" } }, transactions: { pagination: { total: 1 } } });
  });

  it("serves the REST adapter's prepared operations too", async () => {
    const before = planned.mock.calls.length;
    for (let i = 0; i < 3; i++) expect((await platform.api("/v0/transactions?limit=5", { jwt: user.jwt })).status).toBe(200);
    expect(planned.mock.calls.length - before).toBeLessThanOrEqual(1);
  });
});

describe("enumsWithinApi", () => {
  const api = buildSchema("enum Status { pending completed } type Query { status: Status }");
  it("holds when every value a subgraph can answer is public", () => {
    expect(enumsWithinApi(buildSchema("enum Status { pending } type Query { status: Status }"), api)).toBe(true);
  });
  it("fails for a value the public API hides (@inaccessible), which the gateway would null", () => {
    expect(enumsWithinApi(buildSchema("enum Status { pending completed secret } type Query { status: Status }"), api)).toBe(false);
  });
});
