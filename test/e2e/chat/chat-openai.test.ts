import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 11, chat with an OpenAI-compatible model (LLM_BASE_URL): a local fake server speaks the
// chat-completions tool-call protocol on loopback; we check the tools offered, what reaches the
// model and the messages stored.
interface ChatRequest {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
}

let platform: TestPlatform;
let model: Server;
let user: Awaited<ReturnType<typeof userWithWallet>>;
const requests: { body: ChatRequest; authorization: string | undefined }[] = [];
/** requests the fake model answers 500 to (the client retries once) */
let failures = 0;

function completion(message: Record<string, unknown>) {
  return { id: "chatcmpl-1", object: "chat.completion", created: 0, model: "fake-model", choices: [{ index: 0, finish_reason: message.tool_calls ? "tool_calls" : "stop", message: { role: "assistant", ...message } }] };
}

/** Asks for the feed on a new question; once the tool answered, reads the spend out of it. */
function answer(body: ChatRequest) {
  const last = body.messages.at(-1)!;
  if (last.role === "user") {
    return completion({ content: null, tool_calls: [{ id: "call_fake_1", type: "function", function: { name: "list_transactions", arguments: JSON.stringify({ direction: "out", category: "groceries", meta: true, limit: 1 }) } }] });
  }
  const result = JSON.parse(last.content!) as { status: number; body: { meta: { cashflow: { gross_out: string } } } };
  return completion({ content: `Groceries so far: ${result.body.meta.cashflow.gross_out} USD.` });
}

beforeAll(async () => {
  model = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const body = JSON.parse(text) as ChatRequest;
      requests.push({ body, authorization: request.headers.authorization });
      if (failures > 0) {
        failures--;
        response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "model overloaded" } }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  const { port } = model.address() as AddressInfo;
  platform = await startTestPlatform({ LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_API_KEY: "test-key", LLM_MODEL: "fake-model" });
  user = await userWithWallet(platform);
  expect((await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "100" } })).status).toBe(201);
  const paid = await platform.api("/v0/sandbox/payments", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "23.40", merchant: { name: "Fresh Market", mcc: "5411" } } });
  expect(paid.status).toBe(201);
});
afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => model?.close(resolve));
});

async function session(): Promise<string> {
  return (await (await platform.api("/v0/chat/sessions", { method: "POST", jwt: user.jwt, json: {} })).json()).id;
}

describe("chat with an OpenAI-compatible model", () => {
  it("offers the AgentTool operations as functions, runs the model's tool call with the user's credential and stores every step", async () => {
    const id = await session();
    requests.length = 0;
    const response = await platform.api(`/v0/chat/sessions/${id}/messages`, { method: "POST", jwt: user.jwt, json: { content: "How much did I spend on groceries this month?" } });
    expect(response.status).toBe(201);
    const { items } = await response.json();
    expect(items.map((m: { type: string }) => m.type)).toEqual(["user", "tool_call", "tool_result", "assistant"]);
    expect(items[1]).toMatchObject({ tool_call_id: "call_fake_1", tool_name: "list_transactions", tool_arguments: { category: "groceries" } });
    expect(items[2]).toMatchObject({ tool_call_id: "call_fake_1", tool_result: { status: 200, body: { meta: { transaction_count: 1, cashflow: { gross_out: "23.4" } } } } });
    expect(items[3].content).toBe("Groceries so far: 23.4 USD.");

    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first!.authorization).toBe("Bearer test-key");
    expect(first!.body.model).toBe("fake-model");
    const offered = first!.body.tools.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(["list_transactions", "list_accounts", "list_budgets", "list_insights"]));
    for (const hidden of ["create_agent_token", "update_wallet", "reveal_card_details", "create_sandbox_payment"]) expect(offered).not.toContain(hidden);
    expect(first!.body.tools.find((t) => t.function.name === "list_transactions")!.function.parameters).toMatchObject({ type: "object", properties: { category: expect.any(Object) } });
    expect(first!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(second!.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second!.body.messages[2]!.tool_calls![0]).toMatchObject({ id: "call_fake_1", function: { name: "list_transactions" } });
    expect(second!.body.messages[3]!.tool_call_id).toBe("call_fake_1");
  });

  it("shows the model the latest turns that fit its context, each from its question on, while the session keeps them all", async () => {
    const id = await session();
    const turns = 14;
    for (let i = 0; i < turns; i++) {
      const asked = await platform.api(`/v0/chat/sessions/${id}/messages`, { method: "POST", jwt: user.jwt, json: { content: `${i} ${"?".repeat(3990)}` } });
      expect(asked.status).toBe(201);
    }
    const stored = (await (await platform.api(`/v0/chat/sessions/${id}/messages`, { jwt: user.jwt })).json()).items as { type: string }[];
    expect(stored.filter((m) => m.type === "user")).toHaveLength(turns);

    const last = requests.at(-1)!.body.messages;
    const questions = last.filter((m) => m.role === "user").map((m) => Number(m.content!.split(" ")[0]));
    expect(last[1]!.role).toBe("user");
    expect(questions.length).toBeGreaterThan(1);
    expect(questions.length).toBeLessThan(turns);
    // the latest questions, in order, up to this turn's
    expect(questions).toEqual(Array.from({ length: questions.length }, (_, k) => turns - questions.length + k));
    const chars = last.slice(1).reduce((total, m) => total + (m.content?.length ?? 0) + JSON.stringify(m.tool_calls ?? []).length, 0);
    expect(chars).toBeLessThan(48_000 + 10_000);
  });

  it("answers 502 CHT-502-001 when the model fails, keeping the user's message", async () => {
    const id = await session();
    failures = 2;
    const response = await platform.api(`/v0/chat/sessions/${id}/messages`, { method: "POST", jwt: user.jwt, json: { content: "and restaurants?" } });
    expect(response.status).toBe(502);
    expect((await response.json()).error_code).toBe("CHT-502-001");
    const history = await (await platform.api(`/v0/chat/sessions/${id}/messages`, { jwt: user.jwt })).json();
    expect(history.items.map((m: { type: string; content: string }) => [m.type, m.content])).toEqual([["user", "and restaurants?"]]);
  });
});
