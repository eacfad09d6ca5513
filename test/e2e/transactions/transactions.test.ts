import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../../lib/errors/app-error.ts";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { sourceBalances } from "../../../subgraphs/finance/transactions/balances.ts";
import { moveTransactionStatus } from "../../../subgraphs/finance/transactions/move-transaction-status.ts";
import { recordMovement, type MovementInput } from "../../../subgraphs/finance/transactions/record-movement.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { ensureAsset, userWithWallet } from "../../support/finance.ts";
import { expectCredentialCases, type RouteCall } from "../../support/route-cases.ts";
import { IDEMPOTENCY_KEY_PRUNE_JOB, idempotencyKeyPruner, pruneIdempotencyKeys } from "../../../lib/jobs/idempotency-key-prune.ts";
import { responsesOf } from "../../support/openapi-document.ts";

// Issue 9, the ledger: sandbox deposits, GET /v0/transactions/{id}, Idempotency-Key, balances
// computed in SQL, overdrafts refused and concurrent requests (on PostgreSQL in e2e-postgres).

let platform: TestPlatform;
let db: FinanceDb;

function deposit(jwt: string, body: unknown, key?: string) {
  return platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: body, ...(key !== undefined && { headers: { "idempotency-key": key } }) });
}

function outflow(user_id: string, wallet_id: number, amount: string, extra: Partial<MovementInput> = {}) {
  return db.$transaction((tx) =>
    recordMovement(tx, { user_id, type: "withdrawal", direction: "out", amount, unit: { asset_symbol: "ETH", decimals: 18 }, source: { kind: "wallet", id: wallet_id }, ...extra }),
  );
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "ETH", 18);
  await ensureAsset(db, "USDC", 6);
});
afterAll(() => platform?.stop());

describe("POST /v0/sandbox/deposits", () => {
  it("credits the user's wallet with a completed deposit, readable by id", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const response = await deposit(jwt, { wallet_id, asset: "usdc", amount: "25.50", description: "first funds" });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      type: "deposit",
      status: "completed",
      direction: "in",
      amount: "25.5",
      asset: { symbol: "USDC", decimals: 6 },
      currency: null,
      description: "first funds",
      wallet_id,
      card_id: null,
      bank_account_id: null,
      chain_id: 8453,
    });
    expect(body.id).toMatch(/^txn_[0-9a-z]{26}$/);
    expect(typeof body.timestamp).toBe("number");
    expect(body.status_history.map((c: { from: string | null; to: string }) => [c.from, c.to])).toEqual([
      [null, "pending"],
      ["pending", "processing"],
      ["processing", "completed"],
    ]);
    expect(body._links.self.href).toContain(`/v0/transactions/${body.id}`);

    const read = await platform.api(`/v0/transactions/${body.id}`, { jwt });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);

    const iso = await platform.api(`/v0/transactions/${body.id}`, { jwt, headers: { "x-timestamp-format": "iso8601" } });
    expect((await iso.json()).timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("refuses another user's wallet (WAL-404-001) and another user's transaction (TXN-404-001)", async () => {
    const owner = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const refused = await deposit(other.jwt, { wallet_id: owner.wallet_id, asset: "ETH", amount: "1" });
    expect(refused.status).toBe(404);
    expect((await refused.json()).error_code).toBe("WAL-404-001");

    const mine = await (await deposit(owner.jwt, { wallet_id: owner.wallet_id, asset: "ETH", amount: "1" })).json();
    const hidden = await platform.api(`/v0/transactions/${mine.id}`, { jwt: other.jwt });
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error_code).toBe("TXN-404-001");
    expect((await platform.api("/v0/transactions/txn_missing", { jwt: owner.jwt })).status).toBe(404);
  });

  it("needs a credential (401) and a PAT with the write scope (403)", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const anonymous = await platform.api("/v0/sandbox/deposits", { method: "POST", json: { wallet_id, asset: "ETH", amount: "1" } });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error_code).toBe("USR-401-001");

    const token = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "ro", scopes: ["read"] } })).json();
    const readOnly = await platform.api("/v0/sandbox/deposits", { method: "POST", pat: token.token, json: { wallet_id, asset: "ETH", amount: "1" } });
    expect(readOnly.status).toBe(403);
    expect((await readOnly.json()).error_code).toBe("USR-403-001");
    const writer = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "rw", scopes: ["write"] } })).json();
    expect((await platform.api("/v0/sandbox/deposits", { method: "POST", pat: writer.token, json: { wallet_id, asset: "ETH", amount: "1" } })).status).toBe(201);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(1);
  });

  it("refuses amounts that are not positive decimals within the asset's decimals, and unknown assets", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    for (const amount of ["0", "-1", "1e3", "0.1234567"]) {
      const response = await deposit(jwt, { wallet_id, asset: "USDC", amount });
      expect(response.status).toBe(422);
      expect((await response.json()).error_code).toBe("GEN-422-001");
    }
    const number = await deposit(jwt, { wallet_id, asset: "USDC", amount: 1 });
    expect(number.status).toBe(422);
    const unknown = await deposit(jwt, { wallet_id, asset: "NOPE", amount: "1" });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error_code).toBe("TXN-422-002");
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(0);
  });
});

describe("amounts beyond the money columns (issue 26)", () => {
  const item = async (response: Response) => {
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error_code).toBe("GEN-422-001");
    return body.detail[0] as { loc: string[]; msg: string; type: string };
  };

  it("refuse an amount, or its USD value, of more than 30 digits before the point with 422 at body.amount, never a 500, booking nothing", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    // 60 digits fit NUMERIC(78, 18) alone; amount × price (ETH at 3000 USD) does not
    expect(await item(await deposit(jwt, { wallet_id, asset: "ETH", amount: "9".repeat(60) }))).toMatchObject({ loc: ["body", "amount"], type: "decimal_whole_digits", msg: expect.stringContaining("30 digits") });
    expect(await item(await deposit(jwt, { wallet_id, asset: "USDC", amount: "9".repeat(31) }))).toMatchObject({ loc: ["body", "amount"], type: "decimal_whole_digits" });
    // within the bound, but worth more than it in USD
    expect(await item(await deposit(jwt, { wallet_id, asset: "ETH", amount: "9".repeat(30) }))).toMatchObject({ loc: ["body", "amount"], type: "value_error", msg: expect.stringContaining("USD value") });
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(0);
    // at the bound, twice: their stored sums (transaction_rollups) still fit
    for (let i = 0; i < 2; i++) expect((await deposit(jwt, { wallet_id, asset: "USDC", amount: "9".repeat(30) })).status).toBe(201);
    expect((await platform.api("/v0/transactions?meta=true", { jwt })).status).toBe(200);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(2);
  });

  it("refuse them on the other money routes too: a payment, a budget", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const payment = await platform.api("/v0/sandbox/payments", { method: "POST", jwt, json: { wallet_id, asset: "ETH", amount: "9".repeat(60), merchant: { name: "Shop" } } });
    expect(await item(payment)).toMatchObject({ loc: ["body", "amount"] });
    const budget = await platform.api("/v0/budgets", { method: "POST", jwt, json: { category: "travel", amount: "9".repeat(60), period: "monthly" } });
    expect(await item(budget)).toMatchObject({ loc: ["body", "amount"] });
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(0);
  });
});

describe("Idempotency-Key", () => {
  it("answers a retry with the first response and books one movement", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const body = { wallet_id, asset: "ETH", amount: "0.5" };
    const first = await deposit(jwt, body, "key-retry-1");
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const retry = await deposit(jwt, { amount: "0.5", asset: "ETH", wallet_id }, "key-retry-1");
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(firstBody);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(1);

    // another key is another deposit; no key, every request moves money
    expect((await deposit(jwt, body, "key-retry-2")).status).toBe(201);
    expect((await deposit(jwt, body)).status).toBe(201);
    expect((await deposit(jwt, body)).status).toBe(201);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(4);
  });

  it("refuses the same key with another body (TXN-422-001), and keys are per user", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, "key-reuse")).status).toBe(201);
    const other = await deposit(jwt, { wallet_id, asset: "ETH", amount: "2" }, "key-reuse");
    expect(other.status).toBe(422);
    expect((await other.json()).error_code).toBe("TXN-422-001");
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(1);

    const someoneElse = await userWithWallet(platform);
    expect((await deposit(someoneElse.jwt, { wallet_id: someoneElse.wallet_id, asset: "ETH", amount: "2" }, "key-reuse")).status).toBe(201);
  });

  it("forgets a key after 24 hours: the same key then starts a new request", async () => {
    const { id, jwt, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, "key-expiring")).status).toBe(201);
    await db.idempotencyKey.update({ where: { user_id_key: { user_id: id, key: "key-expiring" } }, data: { created_at: new Date(Date.now() - 24 * 3_600_000 - 1_000) } });
    const later = await deposit(jwt, { wallet_id, asset: "ETH", amount: "2" }, "key-expiring");
    expect(later.status).toBe(201);
    expect((await later.json()).amount).toBe("2");
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(2);
    const retry = await deposit(jwt, { wallet_id, asset: "ETH", amount: "2" }, "key-expiring");
    expect(await retry.json()).toMatchObject({ amount: "2" });
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(2);
  });

  it("turns concurrent retries of an expired key into one new movement with one answer", async () => {
    const { id, jwt, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, "key-expired-concurrent")).status).toBe(201);
    await db.idempotencyKey.update({ where: { user_id_key: { user_id: id, key: "key-expired-concurrent" } }, data: { created_at: new Date(Date.now() - 24 * 3_600_000 - 1_000) } });
    const body = { wallet_id, asset: "ETH", amount: "0.75" };
    const responses = await Promise.all(Array.from({ length: 8 }, () => deposit(jwt, body, "key-expired-concurrent")));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(2);
  });

  it("prunes expired keys in batches, keeps live ones, and runs the prune as a standing job of finance", async () => {
    const { id, jwt, wallet_id } = await userWithWallet(platform);
    const keys = ["key-prune-old-1", "key-prune-old-2", "key-prune-live"];
    for (const key of keys) expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, key)).status).toBe(201);
    const age = (key: string, ms: number) => db.idempotencyKey.update({ where: { user_id_key: { user_id: id, key } }, data: { created_at: new Date(Date.now() - ms) } });
    // far older than any other test's keys, so this test's prune is the only one that reaches them first
    const now = new Date();
    await age("key-prune-old-1", 100 * 86_400_000);
    await age("key-prune-old-2", 100 * 86_400_000 - 1_000);
    await age("key-prune-live", 24 * 3_600_000 - 60_000);
    expect(await pruneIdempotencyKeys(db, "finance", new Date(now.getTime() - 98 * 86_400_000), 1)).toBe(1);
    expect(await db.idempotencyKey.findUnique({ where: { user_id_key: { user_id: id, key: "key-prune-old-1" } } })).toBeNull();
    expect(await db.idempotencyKey.findUnique({ where: { user_id_key: { user_id: id, key: "key-prune-old-2" } } })).not.toBeNull();

    const pass = await idempotencyKeyPruner(db, "finance").run({ id: "job_test", kind: IDEMPOTENCY_KEY_PRUNE_JOB, key: IDEMPOTENCY_KEY_PRUNE_JOB, payload: {}, attempts: 1, max_attempts: 8 });
    expect(pass).toMatchObject({ outcome: "later" });
    expect((await db.idempotencyKey.findMany({ where: { user_id: id }, select: { key: true } })).map((row) => row.key)).toEqual(["key-prune-live"]);
    // a pruned key is a new request; the live one still answers its first response
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "2" }, "key-prune-old-2")).status).toBe(201);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, "key-prune-live")).status).toBe(201);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(4);
    expect(await db.job.findMany({ where: { kind: IDEMPOTENCY_KEY_PRUNE_JOB }, select: { key: true } })).toEqual([{ key: IDEMPOTENCY_KEY_PRUNE_JOB }]);
  });

  it("refuses a malformed key with GEN-422-001 at header.Idempotency-Key", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const response = await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" }, "x".repeat(256));
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem.error_code).toBe("GEN-422-001");
    expect(problem.detail[0].loc).toEqual(["header", "Idempotency-Key"]);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(0);
  });

  it("stores nothing for a refused request, so the key can be retried", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "NOPE", amount: "1" }, "key-after-refusal")).status).toBe(422);
    expect((await deposit(jwt, { wallet_id: wallet_id + 1_000_000, asset: "ETH", amount: "1" }, "key-after-refusal-2")).status).toBe(404);
    expect(await db.idempotencyKey.count({ where: { key: { startsWith: "key-after-refusal" } } })).toBe(0);
  });

  it("turns concurrent duplicates into one movement with one answer", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const body = { wallet_id, asset: "ETH", amount: "0.25" };
    const responses = await Promise.all(Array.from({ length: 8 }, () => deposit(jwt, body, "key-concurrent")));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(1);
  });

  it("documents the header on the route", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    const operation = document.paths["/v0/sandbox/deposits"].post;
    expect(operation.tags).toEqual(["Sandbox"]);
    expect(operation.parameters.find((p: { name: string }) => p.name === "Idempotency-Key")).toMatchObject({ in: "header", required: false, schema: { maxLength: 255 } });
    expect(responsesOf(document, operation)["422"].description).toContain("TXN-422-001");
    expect(document.paths["/v0/transactions/{transaction_id}"].get.tags).toEqual(["Transactions", "AgentTool"]);
  });
});

describe("the ledger", () => {
  it("sums balances exactly in SQL: 0.1 + 0.2 is 0.3", async () => {
    const { jwt, id, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "0.1" })).status).toBe(201);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "0.2" })).status).toBe(201);
    expect((await deposit(jwt, { wallet_id, asset: "USDC", amount: "0.000001" })).status).toBe(201);
    await outflow(id, wallet_id, "0.05", { status: "pending" });
    const balances = await sourceBalances(db, { kind: "wallet", id: wallet_id });
    expect(balances).toEqual([
      {
        asset_symbol: "ETH",
        currency: null,
        decimals: 18,
        balance: "0.3",
        pending_balance: "-0.05",
        available_balance: "0.25",
        balance_base_units: "300000000000000000",
        pending_balance_base_units: "-50000000000000000",
      },
      {
        asset_symbol: "USDC",
        currency: null,
        decimals: 6,
        balance: "0.000001",
        pending_balance: "0",
        available_balance: "0.000001",
        balance_base_units: "1",
        pending_balance_base_units: "0",
      },
    ]);
  });

  it("refuses an outflow that would overdraw its source (TXN-409-002), unless the source allows it", async () => {
    const { jwt, id, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "0.3" })).status).toBe(201);
    const refused = await refusal(outflow(id, wallet_id, "0.300000000000000001"));
    expect(refused.code).toBe("TXN-409-002");
    // pending outflows count against what is available
    await outflow(id, wallet_id, "0.2", { status: "pending" });
    expect((await refusal(outflow(id, wallet_id, "0.11"))).code).toBe("TXN-409-002");
    expect((await outflow(id, wallet_id, "0.1", { status: "completed" })).status).toBe("completed");
    expect((await outflow(id, wallet_id, "5", { overdraft: "allow" })).direction).toBe("out");
    expect(await db.transaction.count({ where: { wallet_id } })).toBe(4);
  });

  it("lets concurrent outflows spend a balance once", async () => {
    const { jwt, id, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "0.3" })).status).toBe(201);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => outflow(id, wallet_id, "0.1", { status: "completed" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("TXN-409-002");
    const [eth] = await sourceBalances(db, { kind: "wallet", id: wallet_id });
    expect(eth!.balance).toBe("0");
  });

  it("moves a status along spec 3.4 only, with history", async () => {
    const { jwt, id, wallet_id } = await userWithWallet(platform);
    expect((await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" })).status).toBe(201);
    const pending = await outflow(id, wallet_id, "0.4");
    expect(pending.status).toBe("pending");
    const move = (to: "pending" | "processing" | "completed" | "failed", user_id = id) =>
      db.$transaction((tx) => moveTransactionStatus(tx, { user_id, transaction_id: pending.id, to }));

    const skipped = await refusal(move("completed"));
    expect(skipped.code).toBe("TXN-409-001");
    expect(skipped.detail).toContain("is pending");
    expect((await refusal(move("processing", "usr_someone_else"))).code).toBe("TXN-404-001");
    expect((await move("processing")).status).toBe("processing");
    const failed = await move("failed");
    expect(failed.status_history.map((c) => c.to)).toEqual(["pending", "processing", "failed"]);
    const final = await refusal(move("processing"));
    expect(final.code).toBe("TXN-409-001");
    expect(final.detail).toContain("is failed");
    // a failed outflow no longer holds the money
    const [eth] = await sourceBalances(db, { kind: "wallet", id: wallet_id });
    expect(eth).toMatchObject({ balance: "1", pending_balance: "0", available_balance: "1" });

    const read = await (await platform.api(`/v0/transactions/${pending.id}`, { jwt })).json();
    expect(read.status).toBe("failed");
  });
});

describe("transactions: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions read the feed, the PAT notes and books nothing (403 USR-403-001), an agent token without read:transactions reads nothing (403 AGT-403-001)", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const { id } = await (await deposit(jwt, { wallet_id, asset: "ETH", amount: "1" })).json();
    const reads: RouteCall[] = [{ path: "/v0/transactions" }, { path: `/v0/transactions/${id}` }];
    const writes: RouteCall[] = [
      { method: "PATCH", path: `/v0/transactions/${id}`, json: { note: "probe" } },
      { method: "POST", path: "/v0/sandbox/deposits", json: { wallet_id, asset: "ETH", amount: "1" } },
      { method: "POST", path: "/v0/sandbox/payments", json: { wallet_id, asset: "ETH", amount: "0.1" } },
    ];
    await expectCredentialCases(platform, jwt, { reads, writes, agentScope: "read:transactions" });
  });
});
