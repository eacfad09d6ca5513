import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// __Plural_Title__: CRUD under /v0/__plural_kebab__, the GraphQL fields behind it, and its OpenAPI entries.

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const PATH = "/v0/__plural_kebab__";

async function create(jwt: string, body: Record<string, unknown>) {
  const response = await platform.api(PATH, { method: "POST", jwt, json: body });
  expect(response.status).toBe(201);
  return response.json();
}

describe("CRUD", () => {
  it("creates, lists, reads, updates and deletes a __singular_words__", async () => {
    const { jwt } = await platform.createUser();
    const created = await create(jwt, { name: "Holiday", target_amount: "1500.50", target_date: Date.UTC(2027, 5, 1) });
    expect(created).toMatchObject({ name: "Holiday", target_amount: "1500.5", target_date: Date.UTC(2027, 5, 1) });
    expect(created.id).toMatch(/^__prefix___[0-9a-z]{26}$/);
    expect(created._links.self.href).toContain(`${PATH}/${created.id}`);

    const list = await (await platform.api(PATH, { jwt })).json();
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    expect(await (await platform.api(`${PATH}/${created.id}`, { jwt })).json()).toMatchObject({ id: created.id, name: "Holiday" });

    const updated = await platform.api(`${PATH}/${created.id}`, { method: "PATCH", jwt, json: { target_amount: "2000", target_date: null } });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ name: "Holiday", target_amount: "2000", target_date: null });

    expect((await platform.api(`${PATH}/${created.id}`, { method: "DELETE", jwt })).status).toBe(204);
    const gone = await platform.api(`${PATH}/${created.id}`, { jwt });
    expect(gone.status).toBe(404);
    expect((await gone.json()).error_code).toBe("__CODE__-404-001");
  });

  it("refuses a bad name or amount with 422 at the field", async () => {
    const { jwt } = await platform.createUser();
    for (const [body, loc] of [
      [{ name: "", target_amount: "1" }, ["body", "name"]],
      [{ name: "x", target_amount: "0" }, ["body", "target_amount"]],
      [{ name: "x", target_amount: "1.001" }, ["body", "target_amount"]],
    ] as const) {
      const response = await platform.api(PATH, { method: "POST", jwt, json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = await response.json();
      expect(problem.error_code).toBe("GEN-422-001");
      expect(problem.detail[0].loc).toEqual(loc);
    }
  });
});

describe("security", () => {
  it("answers 404 for another user's __singular_words__, reads and writes alike", async () => {
    const owner = await platform.createUser();
    const other = await platform.createUser();
    const { id } = await create(owner.jwt, { name: "Car", target_amount: "9000" });
    for (const init of [{}, { method: "PATCH", json: { name: "Mine" } }, { method: "DELETE" }]) {
      const response = await platform.api(`${PATH}/${id}`, { jwt: other.jwt, ...init });
      expect(response.status).toBe(404);
      expect((await response.json()).error_code).toBe("__CODE__-404-001");
    }
    expect((await (await platform.api(PATH, { jwt: other.jwt })).json()).items).toEqual([]);
  });

  it("needs a credential (401) and the write scope to change anything (403)", async () => {
    const { jwt } = await platform.createUser();
    const { id } = await create(jwt, { name: "Bike", target_amount: "800" });
    expect((await platform.api(PATH)).status).toBe(401);
    const { token } = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "read-only", scopes: ["read"] } })).json();
    expect((await platform.api(PATH, { pat: token })).status).toBe(200);
    for (const [path, init] of [[PATH, { method: "POST", json: { name: "x", target_amount: "1" } }], [`${PATH}/${id}`, { method: "PATCH", json: { name: "x" } }], [`${PATH}/${id}`, { method: "DELETE" }]] as const) {
      const refused = await platform.api(path, { pat: token, ...init });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error_code).toBe("USR-403-001");
    }
  });
});

describe("composed and documented", () => {
  it("answers the GraphQL query the routes make", async () => {
    const { jwt } = await platform.createUser();
    const { id } = await create(jwt, { name: "Laptop", target_amount: "1200" });
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: "{ __plural_snake__ { id name target_amount target_date } }" }),
    });
    expect(await response.json()).toEqual({ data: { __plural_snake__: [{ id, name: "Laptop", target_amount: "1200", target_date: null }] } });
  });

  it("documents its paths and component in /openapi.json", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    expect(Object.keys(document.paths[PATH])).toEqual(["get", "post"]);
    expect(Object.keys(document.paths[`${PATH}/{__singular_snake___id}`])).toEqual(["get", "patch", "delete"]);
    expect(document.components.schemas.__Singular__.required).toEqual(expect.arrayContaining(["id", "name", "target_amount", "target_date"]));
    expect(document.tags).toContainEqual({ name: "__Plural_Title__" });
  });
});
