import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 26, finding 4: a tool's path parameters could climb. `encodeURIComponent` leaves `..`
// intact, so chat's get_user_strategy(user_strategy_id="..") answered the /v0/user/me profile to
// the model. A stand-in OpenAI-compatible model on loopback asks exactly that (and the encoded
// and slashed variants); each is refused as invalid arguments before any request is made.
const CLIMBS = ["..", "%2e%2e", "%2E%2E", "a/b", "..%2f..", "a\\b"];

let platform: TestPlatform;
let model: Server;
let user: Awaited<ReturnType<typeof userWithWallet>>;

interface ChatRequest {
  messages: { role: string; content: string | null }[];
}

function completion(message: Record<string, unknown>) {
  return { id: "chatcmpl-x", object: "chat.completion", created: 0, model: "climber", choices: [{ index: 0, finish_reason: message.tool_calls ? "tool_calls" : "stop", message: { role: "assistant", ...message } }] };
}

/** Asks for the strategies "..", "%2e%2e", … once, then answers. */
function climb(body: ChatRequest) {
  if (body.messages.at(-1)!.role !== "user") return completion({ content: "Done." });
  return completion({
    content: null,
    tool_calls: CLIMBS.map((value, i) => ({ id: `call_${i}`, type: "function", function: { name: "get_user_strategy", arguments: JSON.stringify({ user_strategy_id: value }) } })),
  });
}

beforeAll(async () => {
  model = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(climb(JSON.parse(text) as ChatRequest))));
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  const { port } = model.address() as AddressInfo;
  platform = await startTestPlatform({ LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_API_KEY: "k", LLM_MODEL: "climber" });
  user = await userWithWallet(platform);
});
afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => model?.close(resolve));
});

describe("chat tool calls whose path parameter is not one segment", () => {
  it("are refused as invalid arguments (422 GEN-422-001 at path.user_strategy_id), and the model never sees the profile", async () => {
    const session = (await (await platform.api("/v0/chat/sessions", { method: "POST", jwt: user.jwt, json: {} })).json()).id;
    const response = await platform.api(`/v0/chat/sessions/${session}/messages`, { method: "POST", jwt: user.jwt, json: { content: "Show me my strategy .." } });
    expect(response.status).toBe(201);
    const results = ((await response.json()).items as { type: string; tool_result?: { status: number; body: Record<string, unknown> } }[]).filter((m) => m.type === "tool_result");
    expect(results).toHaveLength(CLIMBS.length);
    for (const [i, { tool_result }] of results.entries()) {
      expect(tool_result, CLIMBS[i]).toMatchObject({ status: 422, body: { error_code: "GEN-422-001" } });
      expect(JSON.stringify(tool_result), CLIMBS[i]).toContain("user_strategy_id");
      // what /v0/user/me answers: the user's id and address
      expect(JSON.stringify(tool_result), CLIMBS[i]).not.toContain(user.id);
      expect(JSON.stringify(tool_result).toLowerCase(), CLIMBS[i]).not.toContain(user.address.toLowerCase());
    }
  });
});
