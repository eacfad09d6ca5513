import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// The user's PINT mandates on the platform host (GET and DELETE /v0/user/me/pints…): the cases
// that need no mandate. Listing, reading and revoking a mandate the user granted, and another
// user's 404, run with a real exchange in pint/pints.test.ts ("revocation").
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const problem = await response.json();
  expect(problem).toMatchObject({ status, error_code: code, trace_id: response.headers.get("x-request-id") });
  return problem;
}

describe("/v0/user/me/pints", () => {
  it("lists no mandates for a user who granted none, with its self link", async () => {
    const { jwt } = await platform.createUser();
    const response = await platform.api("/v0/user/me/pints", { jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.items).toEqual([]);
    expect(body._links.self.href).toContain("/v0/user/me/pints");
  });

  it("answers 404 PINT-404-001 to read or revoke a mandate the user does not hold", async () => {
    const { jwt } = await platform.createUser();
    await expectProblem(await platform.api("/v0/user/me/pints/pint_nobody", { jwt }), 404, "PINT-404-001");
    await expectProblem(await platform.api("/v0/user/me/pints/pint_nobody", { method: "DELETE", jwt }), 404, "PINT-404-001");
  });

  it("answers 401 without a credential, and lets a read-only personal access token read but not revoke (403 USR-403-001)", async () => {
    for (const [path, method] of [["/v0/user/me/pints", "GET"], ["/v0/user/me/pints/pint_nobody", "GET"], ["/v0/user/me/pints/pint_nobody", "DELETE"]])
      expect((await platform.api(path!, { method })).status, `${method} ${path}`).toBe(401);
    const { jwt } = await platform.createUser();
    const { token } = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "read-only", scopes: ["read"] } })).json();
    expect((await platform.api("/v0/user/me/pints", { pat: token })).status).toBe(200);
    await expectProblem(await platform.api("/v0/user/me/pints/pint_nobody", { pat: token }), 404, "PINT-404-001");
    await expectProblem(await platform.api("/v0/user/me/pints/pint_nobody", { method: "DELETE", pat: token }), 403, "USR-403-001");
  });
});
