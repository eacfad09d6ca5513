import { describe, expect, it } from "vitest";
import { ALLOWED_METHODS, classifyMethod } from "../../rest-adapter/hosts/rpc/methods.ts";
import { MAX_BATCH_SIZE, assemble, parseBody as parseBodyBytes, planCall, upstreamCalls, type CallPlan } from "../../rest-adapter/hosts/rpc/protocol.ts";

describe("method policy", () => {
  it("allows reads and eth_sendRawTransaction", () => {
    for (const method of ["eth_chainId", "eth_blockNumber", "eth_call", "eth_getBalance", "eth_getCode", "eth_estimateGas", "eth_getTransactionReceipt", "eth_getLogs", "eth_sendRawTransaction"])
      expect(classifyMethod(method)).toEqual({ allowed: true });
  });

  it("refuses signing, administration and node state explicitly, and everything unlisted as unknown", () => {
    for (const method of ["eth_sign", "eth_signTransaction", "eth_sendTransaction", "eth_signTypedData_v4", "eth_accounts", "personal_sign", "admin_nodeInfo", "debug_traceCall", "trace_block", "miner_setEtherbase", "txpool_status", "engine_forkchoiceUpdatedV3", "anvil_setBalance", "eth_newFilter", "eth_subscribe"])
      expect(classifyMethod(method)).toMatchObject({ allowed: false, kind: "refused" });
    for (const method of ["eth_foo", "rpc.discover", "ETH_CHAINID", "constructor", "__proto__"]) expect(classifyMethod(method)).toMatchObject({ allowed: false, kind: "unknown" });
  });

  it("keeps the allow-list free of anything it refuses", () => {
    for (const method of ALLOWED_METHODS) expect(classifyMethod(method).allowed).toBe(true);
    expect(ALLOWED_METHODS.some((m) => /sign|personal_|admin_|debug_|accounts|Filter/.test(m) && m !== "eth_sendRawTransaction")).toBe(false);
  });
});

describe("planCall", () => {
  it("forwards an allowed call, keeping the caller's id", () => {
    expect(planCall({ jsonrpc: "2.0", id: "a", method: "eth_chainId" })).toEqual({ kind: "forward", method: "eth_chainId", params: undefined, id: "a", notification: false });
    expect(planCall({ jsonrpc: "2.0", method: "eth_blockNumber", params: [] })).toMatchObject({ kind: "forward", notification: true, id: null });
    expect(planCall({ jsonrpc: "2.0", id: null, method: "eth_blockNumber" })).toMatchObject({ kind: "forward", notification: false, id: null });
  });

  it("answers invalid request objects with -32600, with the id when it is a valid one", () => {
    const cases: [unknown, unknown][] = [
      [1, null],
      [null, null],
      [[], null],
      [{ jsonrpc: "2.0", id: {}, method: "eth_chainId" }, null],
      [{ jsonrpc: "2.0", id: 1.5e400, method: "eth_chainId" }, null],
      [{ id: 4, method: "eth_chainId" }, 4],
      [{ jsonrpc: "2.0", id: 5 }, 5],
      [{ jsonrpc: "2.0", id: 6, method: "" }, 6],
      [{ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: "x" }, 7],
    ];
    for (const [item, id] of cases) expect(planCall(item)).toEqual({ kind: "answered", response: { jsonrpc: "2.0", id, error: { code: -32600, message: expect.stringMatching(/^invalid request/) } } });
  });

  it("answers refused methods (-32004) and unknown ones (-32601), but never a notification", () => {
    expect(planCall({ jsonrpc: "2.0", id: 1, method: "eth_sign" })).toMatchObject({ kind: "answered", response: { id: 1, error: { code: -32004, data: { reason: expect.any(String) } } } });
    expect(planCall({ jsonrpc: "2.0", id: 2, method: "nope" })).toMatchObject({ kind: "answered", response: { id: 2, error: { code: -32601 } } });
    expect(planCall({ jsonrpc: "2.0", method: "eth_sign" })).toEqual({ kind: "answered", response: null });
  });
});

describe("parseBody", () => {
  const parseBody = (text: string, contentType = "application/json") => parseBodyBytes(Buffer.from(text), contentType);
  it("parses one request or a batch, and refuses bad JSON, empty and oversized batches whole", () => {
    expect(parseBody('{"a":1}')).toEqual({ ok: true, batch: false, item: { a: 1 } });
    expect(parseBody("[1]")).toEqual({ ok: true, batch: true, items: [1] });
    expect(parseBody("{")).toMatchObject({ ok: false, response: { id: null, error: { code: -32700 } } });
    expect(parseBody("")).toMatchObject({ ok: false, response: { error: { code: -32700 } } });
    expect(parseBody("[]")).toMatchObject({ ok: false, response: { error: { code: -32600, message: "invalid request: empty batch" } } });
    expect(parseBody(JSON.stringify(Array(MAX_BATCH_SIZE + 1).fill(1)))).toMatchObject({ ok: false, response: { error: { code: -32600 } } });
    expect(parseBody(JSON.stringify(Array(MAX_BATCH_SIZE).fill(1)))).toMatchObject({ ok: true, batch: true });
  });

  it("reads the body by every listener's JSON rules, whatever its media type: a parse error for a duplicate key, deep nesting, a byte order mark, another charset", () => {
    expect(parseBody('{"id":1,"id":2}', "text/plain")).toMatchObject({ ok: false, response: { error: { code: -32700, message: expect.stringContaining("'id'") } } });
    expect(parseBody("[".repeat(10_000) + "]".repeat(10_000))).toMatchObject({ ok: false, response: { error: { code: -32700 } } });
    expect(parseBody('\ufeff{"a":1}')).toMatchObject({ ok: false, response: { error: { code: -32700 } } });
    expect(parseBody('{"a":1}', "application/json; charset=utf-16")).toMatchObject({ ok: false, response: { error: { code: -32700 } } });
    expect(parseBody('{"a":1}', "text/plain")).toEqual({ ok: true, batch: false, item: { a: 1 } });
  });
});

describe("upstreamCalls and assemble", () => {
  const plans: CallPlan[] = [
    planCall({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    planCall({ jsonrpc: "2.0", id: 1, method: "eth_sign" }),
    planCall({ jsonrpc: "2.0", method: "eth_blockNumber" }),
    planCall({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: ["0x1", "latest"] }),
    planCall({ jsonrpc: "2.0", method: "admin_peers" }),
  ];

  it("numbers forwarded calls 0…n-1 in order, notifications included, params only when sent", () => {
    expect(upstreamCalls(plans)).toEqual([
      { jsonrpc: "2.0", id: 0, method: "eth_chainId" },
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: ["0x1", "latest"] },
    ]);
  });

  it("matches upstream answers by our ids, in any order, back to the caller's ids and order", () => {
    const responses = [
      { jsonrpc: "2.0", id: 2, result: "0x5" },
      { jsonrpc: "2.0", id: "1", result: "0x10" }, // numbers echoed as strings still match
      { jsonrpc: "2.0", id: 0, result: "0x1", extra: "dropped" },
    ];
    expect(assemble(plans, { ok: true, responses })).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x1" },
      { jsonrpc: "2.0", id: 1, error: { code: -32004, message: "method not supported: eth_sign", data: expect.any(Object) } },
      { jsonrpc: "2.0", id: 1, result: "0x5" },
    ]);
  });

  it("fills calls the upstream left unanswered or answered malformed with -32603, and passes its errors through", () => {
    const out = assemble(plans, { ok: true, responses: [{ id: 0, error: { code: -32000, message: "header not found", data: { x: 1 } } }, { id: 2, bogus: true }] });
    expect(out[0]).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "header not found", data: { x: 1 } } });
    expect(out[2]).toMatchObject({ id: 1, error: { code: -32603, message: expect.stringContaining("malformed") } });
    const missing = assemble(plans, { ok: true, responses: [] });
    expect(missing[0]).toMatchObject({ error: { code: -32603, message: expect.stringContaining("did not answer") } });
  });

  it("applies a whole-request failure or a single upstream error object to every forwarded call", () => {
    const failed = assemble(plans, { ok: false, error: { code: -32603, message: "internal error: down" } });
    expect(failed.map((r) => r.error?.code)).toEqual([-32603, -32004, -32603]);
    const batchRefused = assemble(plans, { ok: true, responses: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch too large" } } });
    expect(batchRefused.map((r) => r.error?.message)).toEqual(["batch too large", "method not supported: eth_sign", "batch too large"]);
  });

  it("answers nothing for notifications only", () => {
    const only = [planCall({ jsonrpc: "2.0", method: "eth_blockNumber" }), planCall({ jsonrpc: "2.0", method: "eth_sign" })];
    expect(assemble(only, { ok: true, responses: [{ id: 0, result: "0x1" }] })).toEqual([]);
  });
});
