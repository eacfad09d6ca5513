import { describe, expect, it } from "vitest";
import type { UserPrincipal } from "../../lib/auth/principal.ts";
import { SandboxSafeDeployer } from "../../subgraphs/users/safe/sandbox-safe-deployer.ts";
import { userRegistrationMessage } from "../../subgraphs/users/user/register-user.ts";
import { walletRegistrationMessage } from "../../subgraphs/users/wallets/register-wallet.ts";
import { newAccount } from "../support/registration.ts";
import { useUsersSubgraph, type UsersSubgraphHarness } from "../support/users-subgraph.ts";

// ENVIRONMENT_LIMITS (issue 7, item 4): users per hour and Safe deployments per day, counted per
// environment from durable rows; and one Safe deployment at a time per user and chain.

const CREATE_USER = `mutation($a: String!, $c: Int!, $t: Timestamp!, $s: String!) {
  create_user(input: { primary_eoa_address: $a, chain_id: $c, issued_at: $t, signature: $s }) { id } }`;
const UPDATE_WALLET = `mutation($id: Int!, $input: UpdateWalletInput!) { update_wallet(id: $id, input: $input) { wallet { id } triggered_safe { id } } }`;
const REGISTER_WALLET = `mutation($input: RegisterWalletInput!) { register_wallet(input: $input) { id } }`;

let subjects = 0;

/** create_user for a fresh subject in `environment_id`, signed by a fresh key */
async function register(harness: UsersSubgraphHarness, environment_id: string, chain_id = 84532) {
  const account = newAccount();
  const jwt = { provider: "provider_a", issuer: "https://issuer.test", subject: `limits-${++subjects}` };
  const principal: UserPrincipal = { kind: "user", via: "jwt", environment_id, user_id: null, jwt };
  const issued_at = Date.now();
  const message = userRegistrationMessage({ environment_id, issuer: jwt.issuer, subject: jwt.subject, address: account.address, chain_id, issued_at });
  const result = await harness.gql(principal, CREATE_USER, { a: account.address, c: chain_id, t: issued_at, s: await account.signMessage({ message }) });
  return { result, principal, account, subject: jwt.subject };
}

describe("users_per_hour", () => {
  const harness = useUsersSubgraph({ env: { ENVIRONMENT_LIMITS: JSON.stringify({ users_per_hour: 2, overrides: { default: { users_per_hour: 3 } } }) } });

  it("refuses the environment's next user with 429 USR-429-001 and Retry-After, creating nothing; other environments keep their own budget", async () => {
    const db = harness.users.services.db;
    for (let i = 0; i < 2; i++) harness.dataOf((await register(harness, "org_a:env_a")).result);
    const before = { users: await db.user.count(), wallets: await db.wallet.count(), jobs: await db.job.count(), deployments: await db.safeDeploymentRequest.count() };

    const refused = await register(harness, "org_a:env_a");
    const error = harness.errorOf(refused.result);
    expect(error).toMatchObject({ error_code: "USR-429-001", status: 429 });
    expect(error.retry_after).toBeGreaterThan(3500);
    expect(error.retry_after).toBeLessThanOrEqual(3600);
    expect({ users: await db.user.count(), wallets: await db.wallet.count(), jobs: await db.job.count(), deployments: await db.safeDeploymentRequest.count() }).toEqual(before);
    expect(await db.user.count({ where: { auth_provider_id: refused.subject } })).toBe(0);

    // another organisation's environment, and the default environment with its override
    harness.dataOf((await register(harness, "org_b:env_b")).result);
    for (let i = 0; i < 3; i++) harness.dataOf((await register(harness, "default")).result);
    expect(harness.errorOf((await register(harness, "default")).result).error_code).toBe("USR-429-001");
  });

  it("holds under parallel registrations: exactly the limit is created", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => register(harness, "org_c:env_c")));
    const codes = results.map(({ result }) => (result.errors ? (result.errors[0]!.extensions as { error_code: string }).error_code : "created"));
    expect(codes.filter((c) => c === "created")).toHaveLength(2);
    expect(codes.filter((c) => c === "USR-429-001")).toHaveLength(4);
    expect(await harness.users.services.db.user.count({ where: { environment_id: "org_c:env_c" } })).toBe(2);
  });
});

describe("the ceiling of all organisation environments together", () => {
  const harness = useUsersSubgraph({ env: { ENVIRONMENT_LIMITS: JSON.stringify({ users_per_hour: 2, organisations: { users_per_hour: 3 } }) } });

  it("refuses a fresh organisation's first user once organisations together spent theirs; the default environment keeps its own", async () => {
    // one attacker, many organisations: each environment alone is within its budget of 2
    harness.dataOf((await register(harness, "org_x1:env")).result);
    harness.dataOf((await register(harness, "org_x1:env")).result);
    harness.dataOf((await register(harness, "org_x2:env")).result);
    const refused = harness.errorOf((await register(harness, "org_x3:env")).result);
    expect(refused).toMatchObject({ error_code: "USR-429-001", status: 429 });
    expect(refused.detail).toMatch(/organisation environments together may create 3 users per hour/);
    expect(await harness.users.services.db.user.count({ where: { environment_id: "org_x3:env" } })).toBe(0);
    harness.dataOf((await register(harness, "default")).result);
  });
});

describe("safe_deployments_per_day", () => {
  const harness = useUsersSubgraph({ env: { ENVIRONMENT_LIMITS: JSON.stringify({ users_per_hour: null, safe_deployments_per_day: 2 }) } });

  it("counts registrations and primary changes; over the limit 429 WAL-429-001 and nothing changes", async () => {
    const db = harness.users.services.db;
    const env = "org_d:env_d";
    const first = await register(harness, env);
    const user_id = harness.dataOf(first.result).create_user.id as string;
    const principal = { ...first.principal, user_id };

    // a second EOA (same key) on another chain, made primary: a second deployment
    const issued_at = Date.now();
    const fields = { user_id, address: first.account.address, chain_id: 8453, type: "EOA", role: "wallet", issued_at };
    const signature = await first.account.signMessage({ message: walletRegistrationMessage(fields) });
    const eoa = harness.dataOf(await harness.gql(principal, REGISTER_WALLET, { input: { address: fields.address, chain_id: 8453, type: "EOA", issued_at, signature } })).register_wallet;
    expect(harness.dataOf(await harness.gql(principal, UPDATE_WALLET, { id: eoa.id, input: { is_primary: true } })).update_wallet.triggered_safe).not.toBeNull();

    const before = { users: await db.user.count(), wallets: await db.wallet.count(), jobs: await db.job.count() };
    const refused = await register(harness, env);
    expect(harness.errorOf(refused.result)).toMatchObject({ error_code: "WAL-429-001", status: 429 });
    expect(harness.errorOf(refused.result).retry_after).toBeGreaterThan(86_000);
    expect({ users: await db.user.count(), wallets: await db.wallet.count(), jobs: await db.job.count() }).toEqual(before);

    // a primary change needing a deployment (a chain without a Safe) is refused too, and leaves the primaries as they were
    const later = Date.now();
    const third = { ...fields, chain_id: 10, issued_at: later };
    const thirdSignature = await first.account.signMessage({ message: walletRegistrationMessage(third) });
    const optimism = harness.dataOf(await harness.gql(principal, REGISTER_WALLET, { input: { address: third.address, chain_id: 10, type: "EOA", issued_at: later, signature: thirdSignature } })).register_wallet;
    expect(harness.errorOf(await harness.gql(principal, UPDATE_WALLET, { id: optimism.id, input: { is_primary: true } }))).toMatchObject({ error_code: "WAL-429-001" });
    expect((await db.wallet.findUniqueOrThrow({ where: { id: eoa.id } })).is_primary).toBe(true);
    expect((await db.wallet.findUniqueOrThrow({ where: { id: optimism.id } })).is_primary).toBe(false);
    expect((await db.user.findUniqueOrThrow({ where: { id: user_id } })).primary_chain_id).toBe(8453);
    expect(await db.wallet.count({ where: { user_id, type: "Safe" } })).toBe(2);

    // other environments are not affected
    harness.dataOf((await register(harness, "org_e:env_e")).result);
  });
});

describe("one Safe deployment per user and chain", () => {
  const failing = new Set<string>();
  const harness = useUsersSubgraph({
    safeDeployer: new SandboxSafeDeployer({ delayMs: 0, fail: (r) => (failing.has(r.owners[0]!.toLowerCase()) ? "sandbox: told to fail" : undefined) }),
  });

  it("parallel requests that each need a deployment on one chain share one deployment and one job", async () => {
    const db = harness.users.services.db;
    const account = newAccount();
    failing.add(account.address.toLowerCase());
    const { user_id, principal } = await harness.newUser({ account, chainId: 84532 });
    await harness.users.services.jobs.drain();
    failing.delete(account.address.toLowerCase());
    const failedSafe = await db.wallet.findFirstOrThrow({ where: { user_id, type: "Safe", chain_id: 84532 } });
    expect(failedSafe.safe_creation_status).toBe("failed");

    // the primary moves to chain 8453 (a deployment there), leaving the failed Safe behind on 84532
    const issued_at = Date.now();
    const fields = { user_id, address: account.address, chain_id: 8453, type: "EOA", role: "wallet", issued_at };
    const signature = await account.signMessage({ message: walletRegistrationMessage(fields) });
    const other = harness.dataOf(await harness.gql(principal, REGISTER_WALLET, { input: { address: account.address, chain_id: 8453, type: "EOA", issued_at, signature } })).register_wallet;
    harness.dataOf(await harness.gql(principal, UPDATE_WALLET, { id: other.id, input: { is_primary: true } }));
    const base = await db.wallet.findFirstOrThrow({ where: { user_id, type: "EOA", chain_id: 84532 } });

    // all need a deployment on 84532: moving the primary back there, and retrying the failed Safe
    const [primary, ...retries] = await Promise.all([
      harness.gql(principal, UPDATE_WALLET, { id: base.id, input: { is_primary: true } }),
      ...Array.from({ length: 3 }, () => harness.gql(principal, UPDATE_WALLET, { id: failedSafe.id, input: { retry_safe_creation: true } })),
    ]);
    const started = harness.dataOf(primary).update_wallet.triggered_safe?.id;
    // every answer points at the one deployment under way
    for (const retry of retries) expect([started, failedSafe.id]).toContain(harness.dataOf(retry).update_wallet.triggered_safe.id);
    const deploying = await db.wallet.findMany({ where: { user_id, type: "Safe", chain_id: 84532, safe_creation_status: "processing" } });
    expect(deploying).toHaveLength(1);
    const jobs = await db.job.findMany({ where: { status: { in: ["queued", "running"] } } });
    expect(jobs.filter((j) => (j.payload as { chain_id: number; wallet_id: number }).chain_id === 84532 && deploying.some((w) => w.id === (j.payload as { wallet_id: number }).wallet_id))).toHaveLength(1);
    expect((await db.wallet.findFirstOrThrow({ where: { user_id, type: "Safe", is_primary: true } })).chain_id).toBe(84532);
  });

  it("the database refuses a second deployment under way for one user and chain", async () => {
    const db = harness.users.services.db;
    const { user_id } = await harness.newUser({ chainId: 84532 });
    await expect(db.wallet.create({ data: { user_id, type: "Safe", chain_id: 84532, safe_creation_status: "processing" } })).rejects.toThrow(/Unique constraint/i);
  });
});
