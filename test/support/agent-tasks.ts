import { expect } from "vitest";
import type { TestPlatform } from "./platform.ts";

/** A problem answer's status, code and the dotted locations of its validation items. */
export async function problemSummary(response: Response) {
  const body = await response.json();
  return { status: response.status, code: body.error_code as string, loc: Array.isArray(body.detail) ? body.detail.map((item: { loc: unknown[] }) => item.loc.join(".")) : undefined };
}

/** Enables a catalogue strategy for the user (POST /v0/user/me/strategies). */
export function enableStrategy(platform: TestPlatform, jwt: string, strategy_id: string, parameters: Record<string, unknown>) {
  return platform.api("/v0/user/me/strategies", { method: "POST", jwt, json: { strategy_id, parameters } });
}

/** Queues a strategy run as an agent task and waits for the task to end. */
export async function runStrategy(platform: TestPlatform, jwt: string, user_strategy_id: string) {
  const created = await platform.api("/v0/agent-tasks", { method: "POST", jwt, json: { kind: "strategy_run", input: { user_strategy_id } } });
  expect(created.status, await created.clone().text()).toBe(201);
  const task = await created.json();
  expect(task).toMatchObject({ status: "queued", kind: "strategy_run", user_strategy_id });
  return finishedTask(platform, jwt, task.id);
}

/** The agent task once it has completed, failed or been cancelled; `headers` for a user of an organisation environment (x-platform-orgid). */
export async function finishedTask(platform: TestPlatform, jwt: string, id: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 200; i++) {
    const task = await (await platform.api(`/v0/agent-tasks/${id}`, { jwt, headers })).json();
    if (["completed", "failed", "cancelled"].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish`);
}
