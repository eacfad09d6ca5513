import { expect } from "vitest";
import type { AgentTokenScope } from "../../lib/vocabulary/agents.ts";
import type { TestPlatform } from "./platform.ts";

// What each route's security cases share (CONTRIBUTING.md, "Tests"): a credential lacking the
// scope, and each call's problem answer side by side, so a file lists its calls once.

/** A problem answer's status and error_code. */
export async function statusAndCode(response: Response) {
  const body = await response.json();
  return { status: response.status, code: body.error_code as string };
}

/** A personal access token of the user holding only the read scope. */
export async function readOnlyPat(platform: TestPlatform, jwt: string): Promise<string> {
  const response = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "read-only", scopes: ["read"] } });
  expect(response.status).toBe(201);
  return (await response.json()).token;
}

/** An agent token of the user holding these scopes (`wallet_ids`: restricted to them), for `platform.api`'s `agent`. */
export async function agentToken(platform: TestPlatform, jwt: string, scopes: AgentTokenScope[], wallet_ids?: number[]): Promise<string> {
  const response = await platform.api("/v0/agent/tokens", { method: "POST", jwt, json: { name: scopes.join(" "), scopes, ...(wallet_ids && { wallet_ids }) } });
  expect(response.status).toBe(201);
  return (await response.json()).token;
}

/** A request of a route's: `json` a body its validation accepts, so the credential decides. */
export interface RouteCall {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  json?: unknown;
}

/** Asserts that each call, made with `credential` (none: no credential), answers this problem. */
export async function expectEachProblem(
  platform: TestPlatform,
  calls: RouteCall[],
  credential: { jwt?: string; pat?: string; agent?: string },
  problem: { status: number; code: string },
): Promise<void> {
  const answers: Record<string, unknown> = {};
  for (const { method = "GET", path, json } of calls) answers[`${method} ${path}`] = await statusAndCode(await platform.api(path, { method, ...credential, ...(json !== undefined && { json }) }));
  expect(answers).toEqual(Object.fromEntries(calls.map(({ method = "GET", path }) => [`${method} ${path}`, problem])));
}
