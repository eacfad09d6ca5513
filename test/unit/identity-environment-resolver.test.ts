import type { DocumentNode, ExecutionResult } from "graphql";
import { describe, expect, it } from "vitest";
import { ENVIRONMENT_CACHE_TTL_MS, IdentityEnvironmentResolver } from "../../gateway/environments.ts";
import { JwtVerifier } from "../../lib/auth/jwt-verifier.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import { FederatedClient, type SubgraphTransport } from "../../lib/graphql/federated-client.ts";

type Answer = ExecutionResult | Error;

/** The identity subgraph's `_environment_auth`, answering from a table the test edits. */
class FakeIdentity implements SubgraphTransport {
  calls: { variables: Record<string, unknown>; context: RequestContext }[] = [];
  answers = new Map<string, Answer>();

  async execute(_document: DocumentNode, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> {
    this.calls.push({ variables, context });
    const answer = this.answers.get(`${variables.org_id}:${variables.env_id}`) ?? { data: { auth: null } };
    if (answer instanceof Error) throw answer;
    return answer;
  }

  providers(orgEnv: string, providers: Record<string, unknown>[]): void {
    this.answers.set(orgEnv, { data: { auth: { environment_id: orgEnv, providers } } });
  }
}

/** The resolver's view of the fake: the identity subgraph queried as the gateway. */
const asGateway = (identity: FakeIdentity) => new FederatedClient("identity", identity, "gateway");

const PROVIDER_B = { name: "provider_b", issuer: "https://b.test", jwks_uri: "https://b.test/jwks.json" };

function setup(ttlMs?: number) {
  let now = 1_000_000;
  const identity = new FakeIdentity();
  const defaultVerifier = new JwtVerifier([]);
  const resolver = new IdentityEnvironmentResolver({ identity: asGateway(identity), defaultVerifier, ...(ttlMs !== undefined && { ttlMs }), now: () => now });
  return { identity, defaultVerifier, resolver, advance: (ms: number) => (now += ms) };
}

describe("IdentityEnvironmentResolver", () => {
  it("resolves an absent x-platform-orgid to the default environment without asking the identity subgraph", async () => {
    const { identity, defaultVerifier, resolver } = setup();
    expect(await resolver.resolve(null)).toEqual({ environment_id: "default", verifier: defaultVerifier });
    expect(identity.calls).toEqual([]);
  });

  it("builds a verifier from the environment's providers, asking as the gateway", async () => {
    const { identity, resolver } = setup();
    identity.providers("org_1:env_1", [PROVIDER_B]);
    const resolved = await resolver.resolve({ org_id: "org_1", env_id: "env_1" }, "trace-1");
    expect(resolved?.environment_id).toBe("org_1:env_1");
    expect(resolved?.verifier.issuers).toEqual(["https://b.test"]);
    expect(identity.calls).toEqual([{ variables: { org_id: "org_1", env_id: "env_1" }, context: { principal: { kind: "internal", service: "gateway" }, trace_id: "trace-1" } }]);
  });

  it("answers null for an environment the identity subgraph does not know (or that is deleted or inactive)", async () => {
    const { resolver } = setup();
    expect(await resolver.resolve({ org_id: "org_1", env_id: "gone" })).toBeNull();
  });

  it("caches each environment for the TTL (30 s by default), then asks again and sees changes", async () => {
    expect(ENVIRONMENT_CACHE_TTL_MS).toBe(30_000);
    const { identity, resolver, advance } = setup();
    const orgEnv = { org_id: "org_1", env_id: "env_1" };
    identity.providers("org_1:env_1", [PROVIDER_B]);
    const first = await resolver.resolve(orgEnv);
    advance(29_999);
    identity.answers.delete("org_1:env_1"); // deleted meanwhile
    expect(await resolver.resolve(orgEnv)).toBe(first);
    expect(identity.calls).toHaveLength(1);
    advance(1);
    expect(await resolver.resolve(orgEnv)).toBeNull();
    expect(identity.calls).toHaveLength(2);
    // unknown answers are cached too
    await resolver.resolve(orgEnv);
    expect(identity.calls).toHaveLength(2);
  });

  it("keeps the same verifier (and its JWKS cache) when a refresh finds the same providers, and a new one when they change", async () => {
    const { identity, resolver, advance } = setup(1_000);
    const orgEnv = { org_id: "org_1", env_id: "env_1" };
    identity.providers("org_1:env_1", [PROVIDER_B]);
    const first = (await resolver.resolve(orgEnv))!.verifier;
    advance(1_000);
    expect((await resolver.resolve(orgEnv))!.verifier).toBe(first);
    identity.providers("org_1:env_1", [{ ...PROVIDER_B, issuer: "https://b2.test" }]);
    advance(1_000);
    const changed = (await resolver.resolve(orgEnv))!.verifier;
    expect(changed).not.toBe(first);
    expect(changed.issuers).toEqual(["https://b2.test"]);
  });

  it("shares one lookup between concurrent requests and does not cache failures", async () => {
    const { identity, resolver } = setup();
    const orgEnv = { org_id: "org_1", env_id: "env_1" };
    identity.providers("org_1:env_1", [PROVIDER_B]);
    const [a, b] = await Promise.all([resolver.resolve(orgEnv), resolver.resolve(orgEnv)]);
    expect(a).toBe(b);
    expect(identity.calls).toHaveLength(1);

    const other = { org_id: "org_1", env_id: "env_2" };
    identity.answers.set("org_1:env_2", new Error("connection refused"));
    // an unreachable identity service is a 503 naming it, and is not cached
    await expect(resolver.resolve(other)).rejects.toMatchObject({ code: "GEN-503-001", detail: "The identity service could not be reached." });
    identity.providers("org_1:env_2", [PROVIDER_B]);
    expect((await resolver.resolve(other))?.environment_id).toBe("org_1:env_2");
  });

  it("passes on a catalogue error of the subgraph, and anything else as 503", async () => {
    const { identity, resolver } = setup();
    identity.answers.set("org_1:env_1", { errors: [{ message: "x", extensions: { error_code: "USR-403-001" } }] as never });
    await expect(resolver.resolve({ org_id: "org_1", env_id: "env_1" })).rejects.toMatchObject({ code: "USR-403-001" });
    identity.answers.set("org_1:env_2", { errors: [{ message: "boom" }] as never });
    const error = await resolver.resolve({ org_id: "org_1", env_id: "env_2" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("GEN-503-001");
  });

  it("uses the local keys for a siwe entry without its own, and refuses to build one without any (503)", async () => {
    const { identity, resolver } = setup();
    identity.providers("org_1:env_1", [{ name: "siwe", issuer: "https://siwe.test" }]);
    await expect(resolver.resolve({ org_id: "org_1", env_id: "env_1" })).rejects.toMatchObject({ code: "GEN-503-001" });
    const withKeys = new IdentityEnvironmentResolver({ identity: asGateway(identity), defaultVerifier: new JwtVerifier([]), localKeys: async () => new Uint8Array() });
    expect((await withKeys.resolve({ org_id: "org_1", env_id: "env_1" }))?.verifier.issuers).toEqual(["https://siwe.test"]);
  });

  it("keeps at most maxEntries environments", async () => {
    const identity = new FakeIdentity();
    const resolver = new IdentityEnvironmentResolver({ identity: asGateway(identity), defaultVerifier: new JwtVerifier([]), maxEntries: 2 });
    for (const env of ["a", "b", "c"]) await resolver.resolve({ org_id: "org", env_id: env });
    expect(identity.calls).toHaveLength(3);
    await resolver.resolve({ org_id: "org", env_id: "c" });
    expect(identity.calls).toHaveLength(3);
    await resolver.resolve({ org_id: "org", env_id: "a" }); // dropped first
    expect(identity.calls).toHaveLength(4);
  });
});
