import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// GET /v0/users/{sri} on the identity host (spec 4.6, 5.2): fields grow with the key's scopes.
let platform: TestPlatform;
let owner: string;
let userId: string;
const ORG = "org_lookup";
const ENV = "env_lookup";

async function mintKey(scopes: string[], org = ORG, env = ENV, bearer = owner): Promise<string> {
  const response = await platform.identity(`/v0/organisation/${org}/keys`, { method: "POST", bearer, json: { name: scopes.join("+"), env_id: env, scopes } });
  expect(response.status).toBe(201);
  return (await response.json()).key;
}

beforeAll(async () => {
  platform = await startTestPlatform({
    IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Lookup Ltd" }, environment: { id: ENV, name: "Dev" }, members: [{ sub: "lookup-owner" }] }),
  });
  owner = await platform.dashboard.sign({ sub: "lookup-owner" });
  userId = (await platform.createUser()).id;
});
afterAll(() => platform?.stop());

describe("GET /v0/users/{sri}", () => {
  it("answers the basic record to idsvc.lookup, and more with each further scope", async () => {
    const basic = await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(["idsvc.lookup"]) });
    expect(basic.status).toBe(200);
    const body = await basic.json();
    expect(body).toMatchObject({ sri: userId, user: { id: userId }, _links: { self: { href: `${platform.config.publicIdentityUrl}/v0/users/${userId}` } } });
    expect(Object.keys(body.user).sort()).toEqual(["created_at", "id"]);

    const details = await (await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(["idsvc.lookup", "idsvc.get_details"]) })).json();
    expect(details.user.identity_record).toMatchObject({ auth_provider: "provider_a", primary_chain_id: 8453, environment_id: "default" });
    expect(details.user).not.toHaveProperty("kyc");

    const kyc = await (await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(["idsvc.lookup", "idsvc.get_kyc"]) })).json();
    expect(kyc.user.kyc).toMatchObject({ status: "pending", verified: false });
    expect(kyc.user).not.toHaveProperty("identity_record");
    expect(kyc.user).not.toHaveProperty("pints");

    // no mandate was exchanged for this user yet: an empty balance (pint-exchange.test.ts fills one)
    const pints = await (await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(["idsvc.lookup", "idsvc.get_pints"]) })).json();
    expect(pints.user.pints).toEqual({ active_count: 0, active: [] });
    expect(pints.user).not.toHaveProperty("kyc");
  });

  it("needs a server key with idsvc.lookup: 403 otherwise, 401 without a key", async () => {
    for (const scopes of [["idsvc.get_kyc"], ["rpc.invoke"]]) {
      const response = await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(scopes) });
      expect(response.status).toBe(403);
      expect((await response.json()).error_code).toBe("IDS-403-001");
    }
    const none = await platform.identity(`/v0/users/${userId}`);
    expect(none.status).toBe(401);
    expect((await none.json()).error_code).toBe("IDS-401-001");
  });

  it("answers 404 for unknown users and for users of other organisations, 400 for a malformed SRI", async () => {
    const key = await mintKey(["idsvc.lookup"]);
    const unknown = await platform.identity(`/v0/users/usr_${"0".repeat(26)}`, { bearer: key });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error_code).toBe("IDS-404-001");
    const malformed = await platform.identity("/v0/users/alice", { bearer: key });
    expect(malformed.status).toBe(400);
    expect((await malformed.json())).toMatchObject({ error_code: "IDS-400-001", type: `${platform.config.docsUrl}/errors/invalid_sri` });

    const founder = await platform.dashboard.sign({ sub: "other-founder" });
    const org = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Other" } })).json()).organisation.id;
    const env = (await (await platform.identity(`/v0/organisation/${org}/environments`, { method: "POST", bearer: founder, json: { name: "Prod" } })).json()).id;
    const foreign = await platform.identity(`/v0/users/${userId}`, { bearer: await mintKey(["idsvc.lookup", "idsvc.get_details"], org, env, founder) });
    expect(foreign.status).toBe(404);
  });

  it("refuses a key's GraphQL query for user fields beyond the lookup groups", async () => {
    const key = await mintKey(["idsvc.lookup"]);
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: `{ user_lookup(sri: "${userId}") { user { id wallets { address } } } }` }),
    });
    const body = await response.json();
    expect(body.errors[0].extensions.error_code).toBe("IDS-403-001");
    expect(JSON.stringify(body.data ?? {})).not.toContain("address");

    // a plain column of the user (no resolver of its own) is refused too
    const scalar = await (await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: `{ user_lookup(sri: "${userId}") { user { id created_at primary_eoa_address } } }` }),
    })).json();
    expect(scalar.errors.map((error: any) => [error.extensions.error_code, error.path.at(-1)])).toEqual([["IDS-403-001", "primary_eoa_address"]]);
  });
});
