import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// The gateway's /graphql for dashboards: same credential headers as REST, verified once.
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

function graphql(query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) {
  return fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query, variables }) });
}

describe("/graphql", () => {
  it("answers a cross-subgraph query for the JWT's user", async () => {
    const { jwt, id } = await platform.createUser();
    const response = await graphql("{ me { id status wallets { type } cards { id } agent_tasks { id } } }", { "x-platform-jwt": jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.me).toMatchObject({ id, status: "pending", cards: [], agent_tasks: [] });
  });

  it("refuses bad credentials before running anything, with the catalogue code", async () => {
    const response = await graphql("{ me { id } }", { "x-platform-jwt": "not-a-jwt" });
    expect(response.status).toBe(401);
    expect((await response.json()).errors[0].extensions).toMatchObject({ error_code: "USR-401-001", status: 401 });
    const orgid = await graphql("{ me { id } }", { "x-platform-orgid": "nocolon" });
    expect(orgid.status).toBe(401);
    expect((await orgid.json()).errors[0].extensions.error_code).toBe("USR-401-002");
  });

  it("keeps the internal principal fields out of the public schema", async () => {
    const response = await graphql("{ __schema { queryType { fields { name } } } }");
    const names = (await response.json()).data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    expect(names).toContain("me");
    expect(names).not.toContain("_principal_for_jwt");
    expect(names).not.toContain("_principal_for_pat");
    const direct = await graphql('{ _principal_for_pat(token: "x") { user_id } }');
    expect((await direct.json()).errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("refuses a value outside a value list's enum before any resolver runs", async () => {
    const { jwt } = await platform.createUser();
    const input = `{ address: "0x52908400098527886E0F7030069857D2E4169EE7", chain_id: 84532, type: Wallet, issued_at: ${Date.now()}, signature: "0x00" }`;
    const body = await (await graphql(`mutation { register_wallet(input: ${input}) { id } }`, { "x-platform-jwt": jwt })).json();
    expect(body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const me = await (await graphql("{ me { status safe_creation_status wallets { type role } } }", { "x-platform-jwt": jwt })).json();
    expect(me.data.me.status).toBe("pending");
    expect(["processing", "completed"]).toContain(me.data.me.safe_creation_status);
    expect(me.data.me.wallets).toContainEqual({ type: "EOA", role: "wallet" });
  });

  it("answers text PostgreSQL cannot store (a NUL character) as the caller's 422, not an internal error", async () => {
    const { jwt } = await platform.createUser();
    const response = await graphql(
      "mutation CreatePat($input: CreatePersonalAccessTokenInput!) { create_personal_access_token(input: $input) { id } }",
      { "x-platform-jwt": jwt },
      { input: { name: "a\u0000b", scopes: ["read"] } },
    );
    const body = await response.json();
    expect(body.errors[0].extensions).toMatchObject({ error_code: "GEN-422-001", status: 422 });
    expect(body.errors[0].message).toContain("NUL");
  });

  it("bounds notifications(limit), agent_tasks(limit), ramps(limit) and user_rule_executions(limit) as their REST routes do: 1 to 100, else 422 at limit (query.limit on REST), never clamped (issue 26)", async () => {
    const { jwt } = await platform.createUser();
    for (const field of ["notifications", "agent_tasks", "ramps"]) {
      for (const [limit, type] of [[0, "greater_than_equal"], [-5, "greater_than_equal"], [101, "less_than_equal"], [1_000_000, "less_than_equal"]] as const) {
        const body = await (await graphql(`query ($limit: Int) { ${field}(limit: $limit) { id } }`, { "x-platform-jwt": jwt }, { limit })).json();
        expect([field, limit, body.data ?? null, body.errors?.[0].extensions]).toEqual([field, limit, null, expect.objectContaining({ error_code: "GEN-422-001", validation: [expect.objectContaining({ loc: ["limit"], type })] })]);
      }
      for (const limit of [null, 1, 100]) {
        const body = await (await graphql(`query ($limit: Int) { ${field}(limit: $limit) { id } }`, { "x-platform-jwt": jwt }, { limit })).json();
        expect([field, limit, body.errors]).toEqual([field, limit, undefined]);
      }
    }
    // a rule's executions too: the limit is checked before the rule is looked for
    for (const limit of [0, 101]) {
      const body = await (await graphql(`query ($limit: Int) { user_rule_executions(id: "rul_missing", limit: $limit) { id } }`, { "x-platform-jwt": jwt }, { limit })).json();
      expect(body.errors?.[0].extensions).toMatchObject({ error_code: "GEN-422-001", validation: [expect.objectContaining({ loc: ["limit"] })] });
    }
  });

  it("reports domain errors with their catalogue extensions", async () => {
    const { jwt } = await platform.createUser();
    const body = await (await graphql("query ($id: Int!) { wallet(id: $id) { id } }", { "x-platform-jwt": jwt }, { id: 999999 })).json();
    expect(body.errors[0].extensions).toMatchObject({ error_code: "WAL-404-001", status: 404, title: "Wallet Not Found" });
  });
});
