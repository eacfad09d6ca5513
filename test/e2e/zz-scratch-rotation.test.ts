import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/platform.ts";
let platform: TestPlatform;
beforeAll(async () => { platform = await startTestPlatform(); });
afterAll(() => platform?.stop());
it("rotation without clock step", async () => {
  const { jwt } = await platform.createUser({ sub: "rot" });
  await platform.issuer.rotate();
  const r = await platform.api("/v0/user/me", { jwt: await platform.issuer.sign({ sub: "rot" }) });
  console.log("status", r.status, await r.text());
  const r2 = await platform.api("/", { method: "GET", headers: {"x-platform-orgid": ""} });
  console.log("health", (await platform.api("/health", { headers: {"x-platform-orgid": "bad"} })).status);
  console.log("cli with jwt of no user", (await platform.api("/v0/cli/config", { jwt: await platform.issuer.sign({ sub: "nouser" }) })).status);
});
