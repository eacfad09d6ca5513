import { expect } from "vitest";
import { AGENT_TOKEN_SCOPES, type AgentTokenScope } from "../../lib/vocabulary/agents.ts";
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

/**
 * A route module's credential cases over its calls: each answers 401 USR-401-001 without a
 * credential; a read-only personal access token of the user makes the reads (200) and none of the
 * writes (403 USR-403-001); with `agentScope`, an agent token holding just that scope makes the
 * reads and one holding every other scope none (403 AGT-403-001). Answers the tokens it made.
 */
export async function expectCredentialCases(
  platform: TestPlatform,
  jwt: string,
  { reads, writes, agentScope }: { reads: RouteCall[]; writes: RouteCall[]; agentScope?: AgentTokenScope },
): Promise<{ pat: string; reader?: string }> {
  await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
  const pat = await readOnlyPat(platform, jwt);
  const reader = agentScope && (await agentToken(platform, jwt, [agentScope]));
  for (const { path } of reads) {
    expect((await platform.api(path, { pat })).status, path).toBe(200);
    if (reader) expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
  }
  await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  if (agentScope) await expectEachProblem(platform, reads, { agent: await agentToken(platform, jwt, AGENT_TOKEN_SCOPES.filter((scope) => scope !== agentScope)) }, { status: 403, code: "AGT-403-001" });
  return { pat, ...(reader && { reader }) };
}
