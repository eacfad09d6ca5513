import { expect } from "vitest";
import { startTestPlatform, type TestPlatform } from "./platform.ts";

/** The organisation and environment a bootstrapped identity host starts with (IDENTITY_BOOTSTRAP). */
export const ORG = "org_boot";
export const ENV = "env_boot";

/**
 * A platform whose identity host holds ORG and ENV, with `owner` a dashboard session of their
 * owner, and the checks its suites make bound to it: a problem answer, and minting a key in ORG
 * (as `owner` unless another bearer is given).
 */
export async function startBootstrappedIdentity() {
  const platform = await startTestPlatform({
    IDENTITY_BOOTSTRAP: JSON.stringify({
      organisation: { id: ORG, name: "Bootstrap Ltd", contact_email: "ops@boot.test" },
      environment: { id: ENV, name: "Development" },
      members: [{ sub: "dash-owner", email: "owner@boot.test", name: "Owner" }],
    }),
  });
  const owner = await platform.dashboard.sign({ sub: "dash-owner" });
  return { platform, owner, expectIdentityProblem: identityProblemCheck(platform), mint: (body: unknown, bearer = owner) => mintKey(platform, bearer, body) };
}

export type BootstrappedIdentity = Awaited<ReturnType<typeof startBootstrappedIdentity>>;

/** expectIdentityProblem bound to one platform. */
export function identityProblemCheck(platform: TestPlatform) {
  return (response: Response, status: number, code: string, typeName: string) => expectIdentityProblem(platform, response, status, code, typeName);
}

/** An identity host's problem answer: status, code, type and documentation links and trace id together. */
export async function expectIdentityProblem(platform: TestPlatform, response: Response, status: number, code: string, typeName: string) {
  expect(response.status).toBe(status);
  const problem = await response.json();
  expect(problem).toMatchObject({
    status,
    error_code: code,
    type: `${platform.config.docsUrl}/errors/${typeName}`,
    documentation: `${platform.config.docsUrl}/errors/${code}`,
    trace_id: response.headers.get("x-request-id"),
  });
  return problem;
}

/** Mints an API key in ORG (POST /v0/organisation/{org_id}/keys). */
export function mintKey(platform: TestPlatform, bearer: string, body: unknown) {
  return platform.identity(`/v0/organisation/${ORG}/keys`, { method: "POST", bearer, json: body });
}
