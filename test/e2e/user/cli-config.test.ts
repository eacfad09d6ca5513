// GET /v0/cli/config (spec 4.4): deployment defaults without a credential, the owning user's
// toggles with a personal access token, and always 200.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePersonalAccessToken } from "../../../lib/auth/personal-access-token.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

let platform: TestPlatform;
let base: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.config.publicBaseUrl;
});
afterAll(() => platform?.stop());

describe("GET /v0/cli/config (spec 4.4)", () => {
  it("answers deployment defaults without a credential: 200 {debug: false, _links.self}", async () => {
    const response = await platform.api("/v0/cli/config");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ debug: false, _links: { self: { href: `${base}/v0/cli/config` } } });
  });

  it("answers 200 for a valid token with the owning user's toggles", async () => {
    const { jwt, id } = await platform.createUser();
    const { token } = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "cli", scopes: ["read"] } })).json();
    const response = await platform.api("/v0/cli/config", { pat: token });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ debug: false, _links: { self: { href: `${base}/v0/cli/config` } } });
    await (platform.subgraphs.users as any).services.db.user.update({ where: { id }, data: { debug: true } });
    expect((await (await platform.api("/v0/cli/config", { pat: token })).json()).debug).toBe(true);
    expect((await (await platform.api("/v0/cli/config")).json()).debug).toBe(false);
  });

  it("always answers 200: a token that does not verify, or a JWT without a user, gets the defaults", async () => {
    for (const pat of [generatePersonalAccessToken(), "plat_pat_nonsense"]) {
      const response = await platform.api("/v0/cli/config", { pat });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ debug: false, _links: { self: { href: `${base}/v0/cli/config` } } });
    }
    const stranger = await platform.api("/v0/cli/config", { jwt: await platform.issuer.sign({ sub: "no-user-yet" }) });
    expect(stranger.status).toBe(200);
    expect((await stranger.json()).debug).toBe(false);
  });
});

describe("GET /v0/cli/config with CLI_DEBUG=true", () => {
  let debugPlatform: TestPlatform;
  beforeAll(async () => {
    debugPlatform = await startTestPlatform({ CLI_DEBUG: "true" });
  });
  afterAll(() => debugPlatform?.stop());

  it("answers debug true without a credential, and for a user who set nothing", async () => {
    const anonymous = await debugPlatform.api("/v0/cli/config");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ debug: true, _links: { self: { href: `${debugPlatform.config.publicBaseUrl}/v0/cli/config` } } });
    const { jwt } = await debugPlatform.createUser();
    const { token } = await (await debugPlatform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "cli", scopes: ["read"] } })).json();
    const withToken = await debugPlatform.api("/v0/cli/config", { pat: token });
    expect(withToken.status).toBe(200);
    expect((await withToken.json()).debug).toBe(true);
  });
});
