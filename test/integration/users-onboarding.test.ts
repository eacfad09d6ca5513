import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExecutionResult } from "graphql";
import { decodeFunctionData, encodeAbiParameters, getAddress, parseAbi, toFunctionSelector, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcSafeInspector, type SafeInspector } from "../../subgraphs/users/onboarding/safe-inspector.ts";
import { submitOnboardingSafe, USER_SIGNED_DEPLOY_GRACE_MS } from "../../subgraphs/users/onboarding/submit-onboarding-safe.ts";
import { encodeSafeInitializer, predictSafeAddress } from "../../subgraphs/users/safe/safe-address.ts";
import { SAFE_PROXY_FACTORY, SAFE_PROXY_FACTORY_ABI, SAFE_L2_SINGLETON } from "../../subgraphs/users/safe/safe-contracts.ts";
import { SandboxSafeDeployer } from "../../subgraphs/users/safe/sandbox-safe-deployer.ts";
import { saltNonceFor } from "../../subgraphs/users/wallets/safe-deployment.ts";
import { newAccount } from "../support/registration.ts";
import { useUsersSubgraph, type UsersSubgraph } from "../support/users-subgraph.ts";

const CHAIN = 84532;
/** owners (lower case) whose sandbox deployment fails; tests add and remove */
const failingOwners = new Set<string>();

const harness = useUsersSubgraph({
  subjectPrefix: "onb",
  safeDeployer: new SandboxSafeDeployer({ delayMs: 0, fail: (r) => (failingOwners.has(r.owners[0]!.toLowerCase()) ? "sandbox: told to fail" : undefined) }),
});
const { gql, errorOf, dataOf } = harness;
let users: UsersSubgraph;
beforeAll(() => {
  users = harness.users;
});

async function newUser(options: { failDeployment?: boolean } = {}) {
  const account = newAccount();
  const eoa = account.address;
  if (options.failDeployment) failingOwners.add(eoa.toLowerCase());
  const { user_id, principal } = await harness.newUser({ account, chainId: CHAIN });
  return { user_id, eoa, principal };
}

/** a user whose registration deployment has failed */
async function failedUser() {
  const user = await newUser({ failDeployment: true });
  await users.services.jobs.drain();
  failingOwners.delete(user.eoa.toLowerCase());
  return user;
}

const STATE = `
  mode chain_id required step_status
  wallet { id address is_primary safe_creation_status safe_creation_event_id }
  config {
    __typename
    ... on AgentCreate2ConfigData { mode safe_address owners threshold salt_nonce event_id }
    ... on UserSignedDeployData { mode safe_address owners threshold factory_address singleton_address initializer salt_nonce transaction_hash deploy_transaction { chain_id to data value } }
    ... on BYOConfigData { mode safe_address accepted_versions required_owner }
  }`;
const GET = `{ onboarding_safe { ${STATE} } }`;
const POST = `mutation($input: SubmitOnboardingSafeInput!) { submit_onboarding_safe(input: $input) { ${STATE} } }`;
const STEPS = `{ onboarding_steps { steps { name step_status required skippable } } }`;
const STEP = `mutation($input: SubmitOnboardingStepInput!) { submit_onboarding_step(input: $input) { steps { name step_status required skippable } } }`;

function predicted(userId: string, eoa: Address): Address {
  return predictSafeAddress({ owners: [eoa], threshold: 1, saltNonce: saltNonceFor(userId, CHAIN), chainId: CHAIN });
}

async function primarySafes(userId: string) {
  return users.services.db.wallet.findMany({ where: { user_id: userId, type: "Safe", is_primary: true, deleted_at: null } });
}

async function withInspector<T>(inspector: SafeInspector, run: () => Promise<T>): Promise<T> {
  const original = users.services.safeInspector;
  users.services.safeInspector = inspector;
  try {
    return await run();
  } finally {
    users.services.safeInspector = original;
  }
}

const aSafe = (owners: Address[], version = "1.4.1"): SafeInspector => ({ inspect: async () => ({ version, owners, threshold: 1 }) });
const BYO_SAFE = getAddress("0x00000000000000000000000000000000000b1005");

describe("onboarding_safe: agent_create2 (registration's default)", () => {
  it("shows the registration deployment processing, then completed", async () => {
    const { user_id, eoa, principal } = await newUser();
    const before = dataOf(await gql(principal, GET)).onboarding_safe;
    const [safe] = await primarySafes(user_id);
    expect(before).toEqual({
      mode: "agent_create2",
      chain_id: CHAIN,
      required: true,
      step_status: "processing",
      wallet: { id: safe!.id, address: null, is_primary: true, safe_creation_status: "processing", safe_creation_event_id: safe!.safe_creation_event_id },
      config: {
        __typename: "AgentCreate2ConfigData",
        mode: "agent_create2",
        safe_address: predicted(user_id, eoa),
        owners: [eoa],
        threshold: 1,
        salt_nonce: saltNonceFor(user_id, CHAIN).toString(),
        event_id: safe!.safe_creation_event_id,
      },
    });

    await users.services.jobs.drain();
    const after = dataOf(await gql(principal, GET)).onboarding_safe;
    expect(after).toMatchObject({ mode: "agent_create2", step_status: "completed", required: false });
    expect(after.wallet).toMatchObject({ address: predicted(user_id, eoa), safe_creation_status: "completed" });
    expect(after.config.safe_address).toBe(after.wallet.address);

    // nothing left to do: every mode conflicts with a deployed Safe
    for (const input of [{ mode: "agent_create2" }, { mode: "byo" }, { mode: "user_signed_deploy" }, { mode: "byo", safe_address: BYO_SAFE }]) {
      const error = errorOf(await withInspector(aSafe([eoa]), () => gql(principal, POST, { input })));
      expect(error).toMatchObject({ error_code: "ONB-409-001", status: 409 });
    }
  });

  it("a failed deployment is step failed; agent_create2 retriggers it through the job", async () => {
    const { user_id, eoa, principal } = await failedUser();
    const failed = dataOf(await gql(principal, GET)).onboarding_safe;
    expect(failed).toMatchObject({ mode: "agent_create2", step_status: "failed", required: true, wallet: { safe_creation_status: "failed" } });

    const retried = dataOf(await gql(principal, POST, { input: { mode: "agent_create2" } })).submit_onboarding_safe;
    expect(retried).toMatchObject({ mode: "agent_create2", step_status: "processing", required: true, wallet: { id: failed.wallet.id, safe_creation_status: "processing" } });
    expect(retried.config.event_id).not.toBe(failed.config.event_id);
    // asking again while it deploys changes nothing
    const again = dataOf(await gql(principal, POST, { input: { mode: "agent_create2" } })).submit_onboarding_safe;
    expect(again.config.event_id).toBe(retried.config.event_id);

    await users.services.jobs.drain();
    const done = dataOf(await gql(principal, GET)).onboarding_safe;
    expect(done).toMatchObject({ step_status: "completed", wallet: { address: predicted(user_id, eoa) } });
    expect(await primarySafes(user_id)).toHaveLength(1);
  });
});

describe("submit_onboarding_safe: request validation", () => {
  it("rejects unknown modes, fields of another mode, malformed addresses and hashes", async () => {
    const { principal } = await failedUser();
    // the mode is the enum OnboardingSafeMode: GraphQL refuses another value before the resolver runs
    expect((await gql(principal, POST, { input: { mode: "magic" } })).errors?.[0]?.message).toMatch(/"magic".*does not exist in "OnboardingSafeMode" enum/);
    const cases: [Record<string, unknown>, string, string[]?][] = [
      [{ mode: "agent_create2", safe_address: BYO_SAFE }, "ONB-400-001"],
      [{ mode: "agent_create2", transaction_hash: `0x${"1".repeat(64)}` }, "ONB-400-001"],
      [{ mode: "byo", transaction_hash: `0x${"1".repeat(64)}` }, "ONB-400-001"],
      [{ mode: "user_signed_deploy", safe_address: BYO_SAFE }, "ONB-400-001"],
      [{ mode: "byo", safe_address: "0x1234" }, "GEN-422-001", ["safe_address"]],
      [{ mode: "user_signed_deploy", transaction_hash: "0xabc" }, "GEN-422-001", ["transaction_hash"]],
    ];
    for (const [input, code, loc] of cases) {
      const error = errorOf(await gql(principal, POST, { input }));
      expect(error.error_code, JSON.stringify(input)).toBe(code);
      if (loc) expect(error.validation![0]!.loc).toEqual(loc);
    }
    expect(dataOf(await gql(principal, GET)).onboarding_safe.step_status).toBe("failed");
  });
});

describe("submit_onboarding_safe: byo", () => {
  it("choosing byo without an address waits for the user", async () => {
    const { eoa, principal } = await failedUser();
    const chosen = dataOf(await gql(principal, POST, { input: { mode: "byo" } })).submit_onboarding_safe;
    expect(chosen).toEqual({
      mode: "byo",
      chain_id: CHAIN,
      required: true,
      step_status: "awaiting_user",
      wallet: null,
      config: { __typename: "BYOConfigData", mode: "byo", safe_address: null, accepted_versions: ["1.3.0", "1.4.1"], required_owner: eoa },
    });
    expect(dataOf(await gql(principal, GET)).onboarding_safe.mode).toBe("byo");
  });

  it("without an RPC for the chain answers 502 CHN-502-001", async () => {
    const { principal } = await failedUser();
    expect(users.services.safeInspector).toBeInstanceOf(RpcSafeInspector);
    expect(errorOf(await gql(principal, POST, { input: { mode: "byo", safe_address: BYO_SAFE } }))).toMatchObject({ error_code: "CHN-502-001", status: 502 });
  });

  it("refuses what is not a usable Safe (400 ONB-400-002)", async () => {
    const { principal } = await failedUser();
    const other = getAddress("0x00000000000000000000000000000000000000ff");
    for (const [inspector, pattern] of [
      [{ inspect: async () => null }, /No Safe was found/],
      [aSafe([other], "1.1.1"), /version 1\.1\.1/],
      [aSafe([other]), /not an owner/],
    ] as [SafeInspector, RegExp][]) {
      const error = errorOf(await withInspector(inspector, () => gql(principal, POST, { input: { mode: "byo", safe_address: BYO_SAFE } })));
      expect(error).toMatchObject({ error_code: "ONB-400-002", status: 400 });
      expect(error.detail).toMatch(pattern);
    }
    expect(dataOf(await gql(principal, GET)).onboarding_safe.step_status).toBe("failed");
  });

  it("registers the Safe as the only primary Safe, completed, superseding the failed one", async () => {
    const { user_id, eoa, principal } = await failedUser();
    const [failed] = await primarySafes(user_id);
    const result = dataOf(await withInspector(aSafe([getAddress("0x00000000000000000000000000000000000000ff"), eoa], "1.3.0"), () =>
      gql(principal, POST, { input: { mode: "byo", safe_address: BYO_SAFE.toLowerCase() } }),
    )).submit_onboarding_safe;
    expect(result).toMatchObject({
      mode: "byo",
      step_status: "completed",
      required: false,
      wallet: { address: BYO_SAFE, is_primary: true, safe_creation_status: "completed", safe_creation_event_id: null },
      config: { mode: "byo", safe_address: BYO_SAFE },
    });
    const primaries = await primarySafes(user_id);
    expect(primaries.map((w) => w.address)).toEqual([BYO_SAFE]);
    expect((await users.services.db.wallet.findUniqueOrThrow({ where: { id: failed!.id } })).deleted_at).not.toBeNull();
    expect(dataOf(await gql(principal, `{ me { safe_creation_status } }`)).me.safe_creation_status).toBe("completed");
  });

  it("refuses a Safe for an unproven primary EOA (403 WAL-403-001): a squatter of the address cannot take its owner's Safe", async () => {
    const { user_id, eoa, principal } = await failedUser();
    // as a registration with the documented body alone records it (issue 25)
    await users.services.db.wallet.updateMany({ where: { user_id }, data: { address_verified_at: null } });
    const submit = () => withInspector(aSafe([eoa]), () => gql(principal, POST, { input: { mode: "byo", safe_address: BYO_SAFE } }));
    const error = errorOf(await submit());
    expect(error).toMatchObject({ error_code: "WAL-403-001", status: 403 });
    expect(error.detail).toContain("/address-proof");
    expect(await primarySafes(user_id)).toMatchObject([{ safe_creation_status: "failed" }]);
    await users.services.db.wallet.updateMany({ where: { user_id, type: "EOA" }, data: { address_verified_at: new Date() } });
    const adopted = dataOf(await submit()).submit_onboarding_safe;
    expect(adopted.wallet).toMatchObject({ address: BYO_SAFE, is_primary: true });
    expect(await users.services.db.wallet.findFirstOrThrow({ where: { user_id, address: BYO_SAFE } })).toMatchObject({ address_verified_at: expect.any(Date) });
  });

  it("keeps one primary Safe under concurrent submissions", async () => {
    const { user_id, eoa, principal } = await failedUser();
    const safes = ["0x00000000000000000000000000000000000c0001", "0x00000000000000000000000000000000000c0002", "0x00000000000000000000000000000000000c0003"];
    const results = await withInspector(aSafe([eoa]), () => Promise.all(safes.map((safe_address) => gql(principal, POST, { input: { mode: "byo", safe_address } }))));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    for (const r of results.filter((r) => r.errors)) expect(errorOf(r).error_code).toBe("ONB-409-001");
    expect(await primarySafes(user_id)).toHaveLength(1);
  });
});

describe("submit_onboarding_safe: user_signed_deploy", () => {
  it("prepares what the user signs: createProxyWithNonce for the predicted Safe", async () => {
    const { user_id, eoa, principal } = await failedUser();
    const chosen = dataOf(await gql(principal, POST, { input: { mode: "user_signed_deploy" } })).submit_onboarding_safe;
    expect(chosen).toMatchObject({ mode: "user_signed_deploy", step_status: "awaiting_user", required: true, wallet: null });
    const config = chosen.config;
    const saltNonce = saltNonceFor(user_id, CHAIN);
    expect(config).toMatchObject({
      __typename: "UserSignedDeployData",
      safe_address: predicted(user_id, eoa),
      owners: [eoa],
      threshold: 1,
      factory_address: SAFE_PROXY_FACTORY,
      singleton_address: SAFE_L2_SINGLETON,
      initializer: encodeSafeInitializer({ owners: [eoa], threshold: 1 }),
      salt_nonce: saltNonce.toString(),
      transaction_hash: null,
      deploy_transaction: { chain_id: CHAIN, to: SAFE_PROXY_FACTORY, value: "0" },
    });
    const call = decodeFunctionData({ abi: SAFE_PROXY_FACTORY_ABI, data: config.deploy_transaction.data as Hex });
    expect(call.functionName).toBe("createProxyWithNonce");
    expect(call.args).toEqual([SAFE_L2_SINGLETON, config.initializer, saltNonce]);
  });

  it("records the user's transaction: processing, confirmed by the job after the grace period", async () => {
    const { user_id, eoa, principal } = await failedUser();
    const hash = `0x${"ab".repeat(32)}`;
    const submitted = dataOf(await gql(principal, POST, { input: { mode: "user_signed_deploy", transaction_hash: hash } })).submit_onboarding_safe;
    expect(submitted).toMatchObject({ mode: "user_signed_deploy", step_status: "processing", required: true, wallet: { safe_creation_status: "processing" }, config: { transaction_hash: hash } });
    // a client retry of the same submission is harmless; another mode now conflicts
    expect(dataOf(await gql(principal, POST, { input: { mode: "user_signed_deploy", transaction_hash: hash } })).submit_onboarding_safe.wallet.safe_creation_event_id).toBe(
      submitted.wallet.safe_creation_event_id,
    );
    expect(errorOf(await gql(principal, POST, { input: { mode: "agent_create2" } }))).toMatchObject({ error_code: "ONB-409-001" });
    const job = await users.services.db.job.findUniqueOrThrow({ where: { key: submitted.wallet.safe_creation_event_id } });
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + USER_SIGNED_DEPLOY_GRACE_MS - 10_000);
    expect(job.payload).toMatchObject({ owners: [eoa], threshold: 1, chain_id: CHAIN, salt_nonce: saltNonceFor(user_id, CHAIN).toString() });
    await users.services.jobs.drain();
    expect(dataOf(await gql(principal, GET)).onboarding_safe.step_status).toBe("processing");
  });

  it("the job completes the Safe at the predicted address", async () => {
    const { user_id, eoa, principal } = await failedUser();
    await submitOnboardingSafe(users.services.db, {
      user_id,
      mode: "user_signed_deploy",
      transaction_hash: `0x${"cd".repeat(32)}`,
      safeInspector: users.services.safeInspector,
      limits: users.services.environmentLimits,
      userSignedGraceMs: 0,
    });
    await users.services.jobs.drain();
    const done = dataOf(await gql(principal, GET)).onboarding_safe;
    expect(done).toMatchObject({ mode: "user_signed_deploy", step_status: "completed", required: false, wallet: { address: predicted(user_id, eoa), is_primary: true } });
    expect(await primarySafes(user_id)).toHaveLength(1);
  });
});

describe("onboarding steps", () => {
  it("lists safe, phone, kyc with their status", async () => {
    const { principal } = await newUser();
    expect(dataOf(await gql(principal, STEPS)).onboarding_steps.steps).toEqual([
      { name: "safe", step_status: "processing", required: true, skippable: false },
      { name: "phone", step_status: "not_started", required: true, skippable: true },
      { name: "kyc", step_status: "not_started", required: true, skippable: false },
    ]);
  });

  it("skips only optional steps; a verified phone completes the step even after a skip", async () => {
    const { user_id, principal } = await newUser();
    const step = (name: string, action: string) => gql(principal, STEP, { input: { name, action } });
    const phoneOf = (r: ExecutionResult<any>) => dataOf(r).submit_onboarding_step.steps.find((s: { name: string }) => s.name === "phone");

    expect(phoneOf(await step("phone", "skip"))).toEqual({ name: "phone", step_status: "skipped", required: false, skippable: true });
    expect(phoneOf(await step("phone", "skip")).step_status).toBe("skipped");
    expect((await users.services.db.user.findUniqueOrThrow({ where: { id: user_id } })).onboarding_skipped_steps).toEqual(["phone"]);
    for (const name of ["kyc", "safe"]) expect(errorOf(await step(name, "skip"))).toMatchObject({ error_code: "ONB-400-003", status: 400 });
    expect(errorOf(await step("phone", "complete"))).toMatchObject({ error_code: "ONB-409-001", status: 409 });

    await gql(principal, `mutation { start_phone_verification(phone_number: "+447700900123") { expires_at } }`);
    const code = /(\d{6})/.exec((users.services.sms as unknown as { outbox: Map<string, string> }).outbox.get("+447700900123")!)![1];
    dataOf(await gql(principal, `mutation($c: String!) { confirm_phone_verification(code: $c) { verified } }`, { c: code }));
    expect(phoneOf(await step("phone", "complete"))).toEqual({ name: "phone", step_status: "completed", required: false, skippable: true });
    expect((await users.services.db.user.findUniqueOrThrow({ where: { id: user_id } })).onboarding_skipped_steps).toEqual([]);
    expect(errorOf(await step("phone", "skip"))).toMatchObject({ error_code: "ONB-409-001" });
  });

  it("completing kyc submits the documents (as submit_kyc); safe completes once deployed", async () => {
    const { principal } = await newUser();
    const step = (name: string, action: string) => gql(principal, STEP, { input: { name, action } });
    const stepOf = (r: ExecutionResult<any>, name: string) => dataOf(r).submit_onboarding_step.steps.find((s: { name: string }) => s.name === name);

    expect(errorOf(await step("kyc", "complete"))).toMatchObject({ error_code: "KYC-409-002" });
    dataOf(await gql(principal, `mutation { kyc_access_token { applicant_id } }`));
    expect(dataOf(await gql(principal, STEPS)).onboarding_steps.steps[2]).toMatchObject({ name: "kyc", step_status: "awaiting_user" });
    expect(stepOf(await step("kyc", "complete"), "kyc")).toEqual({ name: "kyc", step_status: "processing", required: true, skippable: false });
    expect(errorOf(await step("kyc", "complete"))).toMatchObject({ error_code: "KYC-409-001" });

    expect(errorOf(await step("safe", "complete"))).toMatchObject({ error_code: "ONB-409-001" });
    await users.services.jobs.drain();
    expect(stepOf(await step("safe", "complete"), "safe")).toMatchObject({ step_status: "completed", required: false });
  });

  it("refuses a name or action outside their enums before the resolver runs", async () => {
    const { principal } = await newUser();
    for (const [input, message] of [
      [{ name: "email", action: "skip" }, /"email".*does not exist in "OnboardingStepName" enum/],
      [{ name: "phone", action: "later" }, /"later".*does not exist in "OnboardingStepAction" enum/],
    ] as const) {
      expect((await gql(principal, STEP, { input })).errors?.[0]?.message).toMatch(message);
    }
  });
});

describe("RpcSafeInspector over JSON-RPC", () => {
  const SAFE = getAddress("0x00000000000000000000000000000000005afe01");
  const NOT_A_SAFE = getAddress("0x0000000000000000000000000000000000c0de01");
  const REVERTS = getAddress("0x0000000000000000000000000000000000c0de02");
  const OWNER = getAddress("0x8ba1f109551bD432803012645Ac136ddd64DBA72");
  const abi = parseAbi(["function VERSION() view returns (string)", "function getOwners() view returns (address[])", "function getThreshold() view returns (uint256)"]);
  const answers: Record<string, Hex> = {
    [toFunctionSelector(abi[0])]: encodeAbiParameters([{ type: "string" }], ["1.4.1"]),
    [toFunctionSelector(abi[1])]: encodeAbiParameters([{ type: "address[]" }], [[OWNER]]),
    [toFunctionSelector(abi[2])]: encodeAbiParameters([{ type: "uint256" }], [1n]),
  };
  let server: Server;
  let url: string;
  let servedChain = CHAIN;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const call = JSON.parse(body) as { id: number; method: string; params: any[] };
        const reply = (payload: object) => res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, ...payload }));
        if (call.method === "eth_chainId") return reply({ result: `0x${servedChain.toString(16)}` });
        const to = getAddress(call.params[0]?.to ?? call.params[0]);
        if (call.method === "eth_getCode") return reply({ result: to === SAFE || to === NOT_A_SAFE || to === REVERTS ? "0x6080" : "0x" });
        if (call.method === "eth_call") {
          if (to === REVERTS) return reply({ error: { code: 3, message: "execution reverted", data: "0x" } });
          return reply({ result: to === SAFE ? (answers[(call.params[0].data ?? call.params[0].input).slice(0, 10)] ?? "0x") : "0x" });
        }
        reply({ error: { code: -32601, message: "method not found" } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads version, owners and threshold of a Safe", async () => {
    expect(await new RpcSafeInspector({ [CHAIN]: url }).inspect(CHAIN, SAFE)).toEqual({ version: "1.4.1", owners: [OWNER], threshold: 1 });
  });

  it("answers null for no code, a contract returning nothing, and reverts", async () => {
    const inspector = new RpcSafeInspector({ [CHAIN]: url });
    expect(await inspector.inspect(CHAIN, getAddress("0x00000000000000000000000000000000000e0a01"))).toBeNull();
    expect(await inspector.inspect(CHAIN, NOT_A_SAFE)).toBeNull();
    expect(await inspector.inspect(CHAIN, REVERTS)).toBeNull();
  });

  it("is CHN-502-001 without an RPC, on the wrong chain, or when the node is unreachable", async () => {
    await expect(new RpcSafeInspector({}).inspect(CHAIN, SAFE)).rejects.toMatchObject({ code: "CHN-502-001", status: 502 });
    servedChain = 1;
    try {
      await expect(new RpcSafeInspector({ [CHAIN]: url }).inspect(CHAIN, SAFE)).rejects.toMatchObject({ code: "CHN-502-001", detail: expect.stringMatching(/serves chain 1/) });
    } finally {
      servedChain = CHAIN;
    }
    await expect(new RpcSafeInspector({ [CHAIN]: "http://127.0.0.1:1" }).inspect(CHAIN, SAFE)).rejects.toMatchObject({ code: "CHN-502-001" });
  });
});
