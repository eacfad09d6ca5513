import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../../rest-adapter/hosts/platform.ts";
import type { TSchema } from "@sinclair/typebox";
import type { Route } from "../../rest-adapter/route-kit/route.ts";
import { AGENT_TOKEN_SCOPES } from "../../lib/vocabulary/agents.ts";
import { randomAddress, startTestPlatform, type TestPlatform } from "../support/platform.ts";

type Sample = { params?: Record<string, string | number>; body?: unknown };

/**
 * A request each platform route accepts as input (it passes the adapter's validation and reaches
 * its resolver), naming resources that do not exist where it can, so nothing is changed. A route
 * left out gets one from its schemas (derivedSample); it must pass validation too.
 */
const SAMPLES: Record<string, Sample> = {
  createUser: { body: { primary_eoa_address: randomAddress(), chain_id: 8453 } },
  getCurrentUser: {},
  createPersonalAccessToken: { body: { name: "probe", scopes: ["read"] } },
  listPersonalAccessTokens: {},
  revokePersonalAccessToken: { params: { token_id: "pat_missing" } },
  listMyPints: {},
  getMyPint: { params: { pint_id: "pint_missing" } },
  revokeMyPint: { params: { pint_id: "pint_missing" } },
  getPhone: {},
  startPhoneVerification: { body: { phone_number: "not a number" } },
  confirmPhoneVerification: { body: { code: "000000" } },
  getOnboardingSafe: {},
  submitOnboardingSafe: { body: { mode: "byo" } },
  submitOnboardingStep: { body: { name: "safe", action: "complete" } },
  createKycAccessToken: {},
  getKycStatus: {},
  submitKyc: {},
  decideKycInSandbox: { body: { answer: "PENDING" } },
  registerPregeneratedWallet: { body: { provider_wallet_id: "w", address: randomAddress(), type: "EVM", issued_at: 0, signature: "0x00" } },
  listPregeneratedWallets: {},
  listWallets: {},
  registerWallet: { body: { address: randomAddress(), chain_id: 8453, type: "EOA", issued_at: 0, signature: "0x00" } },
  getWallet: { params: { wallet_id: 999_999 } },
  updateWallet: { params: { wallet_id: 999_999 }, body: { nickname: "probe" } },
  proveWalletAddress: { params: { wallet_id: 999_999 }, body: {} },
  deleteWallet: { params: { wallet_id: 999_999 } },
  getTransaction: { params: { transaction_id: "txn_missing" } },
  listTransactions: {},
  updateTransaction: { params: { transaction_id: "txn_missing" }, body: { note: "probe" } },
  createSandboxDeposit: { body: { wallet_id: 999_999, asset: "ETH", amount: "1" } },
  createSandboxPayment: { body: { wallet_id: 999_999, asset: "ETH", amount: "1" } },
  listBudgets: {},
  createBudget: { body: { category: "travel", amount: "100", period: "monthly" } },
  getBudgetSettings: {},
  updateBudgetSettings: { body: { time_zone: "UTC" } },
  getBudget: { params: { budget_id: "bgt_missing" } },
  updateBudget: { params: { budget_id: "bgt_missing" }, body: { amount: "1" } },
  deleteBudget: { params: { budget_id: "bgt_missing" } },
  createCard: { body: { type: "virtual", funding_source: { type: "crypto_wallet", id: "999999" } } },
  listCards: {},
  getCard: { params: { card_id: "crd_missing" } },
  updateCard: { params: { card_id: "crd_missing" }, body: { nickname: "x" } },
  activateCard: { params: { card_id: "crd_missing" }, body: { last_four: "1234" } },
  freezeCard: { params: { card_id: "crd_missing" } },
  unfreezeCard: { params: { card_id: "crd_missing" } },
  closeCard: { params: { card_id: "crd_missing" } },
  getCardFunding: { params: { card_id: "crd_missing" } },
  setCardFunding: { params: { card_id: "crd_missing" }, body: { type: "crypto_wallet", id: "999999" } },
  createCardDetailsChallenge: { params: { card_id: "crd_missing" } },
  revealCardDetails: { params: { card_id: "crd_missing" }, body: { challenge_id: "cdc_missing", signature: `0x${"11".repeat(65)}` } },
  listCardDetailReveals: { params: { card_id: "crd_missing" } },
  listCardAuthorizations: { params: { card_id: "crd_missing" } },
  createSandboxCardAuthorization: { params: { card_id: "crd_missing" }, body: { amount: "1", currency: "USD", merchant: { name: "Probe", mcc: "5411" } } },
  captureSandboxCardAuthorization: { params: { authorization_id: "cau_missing" } },
  reverseSandboxCardAuthorization: { params: { authorization_id: "cau_missing" } },
  refundSandboxCardAuthorization: { params: { authorization_id: "cau_missing" }, body: {} },
  listInsights: {},
  refreshInsights: {},
  getInsight: { params: { insight_id: "ins_missing" } },
  dismissInsight: { params: { insight_id: "ins_missing" } },
  listAssets: {},
  getAsset: { params: { asset_id: "ast_missing" } },
  listWalletAssets: { params: { wallet_id: 999_999 } },
  listAccounts: {},
  getCliConfig: {},
  createAgentToken: { body: { name: "probe", scopes: ["read:balances"] } },
  listAgentTokens: {},
  revokeAgentToken: { params: { token_id: "agt_missing" } },
  listAgentTokenUses: { params: { token_id: "agt_missing" } },
  createChatSession: { body: { title: "probe" } },
  createBankLinkToken: {},
  exchangeBankPublicToken: { body: { public_token: "public-sandbox-missing" } },
  playSandboxBankLink: { body: { link_token: "link-sandbox-missing", institution_id: "ins_sandbox_first" } },
  listBankAccounts: {},
  getBankAccount: { params: { bank_account_id: "bnk_missing" } },
  unlinkBankAccount: { params: { bank_account_id: "bnk_missing" } },
  createSandboxBankTransaction: { params: { bank_account_id: "bnk_missing" }, body: { amount: "1.00", direction: "in", type: "interest", description: "probe" } },
  settleSandboxBankTransaction: { params: { transaction_id: "txn_missing" }, body: { outcome: "posted" } },
  sandboxBankConnectionEvent: { params: { bank_account_id: "bnk_missing" }, body: { event: "link.completed" } },
  createRampQuote: { body: { direction: "on", bank_account_id: "bnk_missing", wallet_id: 1, asset: "USDC", amount: "10.00" } },
  createOnRamp: { body: { quote_id: "rmq_missing" } },
  createOffRamp: { body: { quote_id: "rmq_missing" } },
  listRamps: {},
  getRamp: { params: { ramp_id: "rmp_missing" } },
  settleSandboxRamp: { params: { ramp_id: "rmp_missing" }, body: { outcome: "completed" } },
  listStrategies: {},
  getStrategy: { params: { strategy_id: "stg_round_up" } },
  listUserStrategies: {},
  enableUserStrategy: { body: { strategy_id: "stg_missing", parameters: {} } },
  getUserStrategy: { params: { user_strategy_id: "ust_missing" } },
  updateUserStrategy: { params: { user_strategy_id: "ust_missing" }, body: { status: "disabled" } },
  deleteUserStrategy: { params: { user_strategy_id: "ust_missing" } },
  createAgentTask: { body: { kind: "strategy_run", input: { user_strategy_id: "ust_missing" } } },
  listAgentTasks: {},
  getAgentTask: { params: { task_id: "tsk_missing" } },
  cancelAgentTask: { params: { task_id: "tsk_missing" } },
  listNotifications: {},
  markNotificationRead: { params: { notification_id: "ntf_missing" } },
  listUserRules: {},
  createUserRule: { body: { name: "probe", trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {} } },
  getUserRule: { params: { rule_id: "rul_missing" } },
  updateUserRule: { params: { rule_id: "rul_missing" }, body: { enabled: false } },
  deleteUserRule: { params: { rule_id: "rul_missing" } },
  listUserRuleExecutions: { params: { rule_id: "rul_missing" } },
  listWidgets: {},
  createWidget: { body: { type: "balance", position: { x: 0, y: 0, w: 1, h: 1 } } },
  getWidget: { params: { widget_id: "wdg_missing" } },
  getWidgetData: { params: { widget_id: "wdg_missing" } },
  updateWidget: { params: { widget_id: "wdg_missing" }, body: { title: "probe" } },
  deleteWidget: { params: { widget_id: "wdg_missing" } },
  listConnectors: {},
  getConnector: { params: { connector_id: "con_sandbox_exchange" } },
  listUserConnectors: {},
  connectConnector: { body: { connector_id: "con_missing", credentials: {} } },
  getUserConnector: { params: { user_connector_id: "ucn_missing" } },
  syncUserConnector: { params: { user_connector_id: "ucn_missing" } },
  disconnectUserConnector: { params: { user_connector_id: "ucn_missing" } },
  reconnectUserConnector: { params: { user_connector_id: "ucn_missing" }, body: { credentials: {} } },
  listChatSessions: {},
  getChatSession: { params: { session_id: "chs_missing" } },
  listChatMessages: { params: { session_id: "chs_missing" } },
  sendChatMessage: { params: { session_id: "chs_missing" }, body: { content: "probe" } },
  listChatActions: { params: { session_id: "chs_missing" } },
  declineChatAction: { params: { session_id: "chs_missing", action_id: "act_missing" } },
  confirmChatAction: { params: { session_id: "chs_missing", action_id: "act_missing" } },
};

/** A value the schema accepts: its first example, its constant, else the plainest of its type. */
function example(schema: TSchema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.anyOf)) return example(schema.anyOf.find((member: TSchema) => member.type !== "null") ?? schema.anyOf[0]);
  if (schema.type === "object") return Object.fromEntries(((schema.required as string[] | undefined) ?? []).map((key) => [key, example(schema.properties[key])]));
  if (schema.type === "array") return [];
  if (schema.type === "integer" || schema.type === "number") return schema.minimum ?? 1;
  if (schema.type === "boolean") return false;
  return "probe";
}

/** The sample of a route SAMPLES leaves out: a path parameter names a missing object, the body holds its required fields' examples. */
function derivedSample(route: Route): Sample {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const params = Object.fromEntries(names.map((name) => [name, route.params?.properties?.[name]?.type === "integer" ? 999_999 : "missing"]));
  return { params, ...(route.body && { body: example(route.body) }) };
}

const sampleOf = (route: Route): Sample => SAMPLES[route.operationId] ?? derivedSample(route);

const userRoutes = platformRoutes.filter((route) => route.security.some((scheme) => scheme === "PlatformJwt" || scheme === "PlatformPat"));

const ORG = "org_probe";
const ENV = "env_probe";

/** The same for the identity host's routes of the dashboard and API-key schemes (PINT tokens are left out). */
const IDENTITY_SAMPLES: Record<string, { params?: Record<string, string>; body?: unknown }> = {
  createOrganisation: { body: { name: "Probe" } },
  getOrganisation: {},
  updateOrganisation: { body: { name: "Probe Ltd" } },
  listOrganisationEvents: {},
  getOrganisationEvent: { params: { event_id: "evt_missing" } },
  redeliverOrganisationEvent: { params: { event_id: "evt_missing" }, body: {} },
  redeliverFailedOrganisationEvents: { body: { since: 0 } },
  listMembers: {},
  addMember: { body: { sub: "probe-member" } },
  updateMember: { params: { member_id: "mem_missing" }, body: { role: "member" } },
  removeMember: { params: { member_id: "mem_missing" } },
  listEnvironments: {},
  createEnvironment: { body: { name: "Probe" } },
  getEnvironment: { params: { env_id: ENV } },
  updateEnvironment: { params: { env_id: "env_missing" }, body: { name: "Probe" } },
  deleteEnvironment: { params: { env_id: "env_missing" } },
  getCurrentApiKey: {},
  mintApiKey: { body: { name: "probe", env_id: ENV, scopes: ["idsvc.nope"] } },
  listApiKeys: {},
  getApiKey: { params: { key_id: "key_missing" } },
  revokeApiKey: { params: { key_id: "key_missing" } },
  listWebhookEndpoints: { params: { env_id: ENV } },
  createWebhookEndpoint: { params: { env_id: ENV }, body: { url: "https://hooks.example.com/probe", event_types: ["*"] } },
  getWebhookEndpoint: { params: { env_id: ENV, endpoint_id: "whe_missing" } },
  updateWebhookEndpoint: { params: { env_id: ENV, endpoint_id: "whe_missing" }, body: { enabled: false } },
  deleteWebhookEndpoint: { params: { env_id: ENV, endpoint_id: "whe_missing" } },
  rotateWebhookEndpointSecret: { params: { env_id: ENV, endpoint_id: "whe_missing" }, body: {} },
  emitSandboxEvent: { params: { env_id: "env_missing" }, body: { type: "user.created" } },
  listPintAudiences: {},
  registerPintAudience: { body: { identifier: "com.example.probe" } },
  removePintAudience: { params: { audience_id: "aud_missing" } },
  listOrganisationPints: {},
  getOrganisationPint: { params: { pint_id: "pint_missing" } },
  revokeOrganisationPint: { params: { pint_id: "pint_missing" } },
};

/** Identity routes whose credentials their own suites try: pint-exchange.test.ts and user-lookup.test.ts. */
const CHECKED_ELSEWHERE = ["exchangePint", "lookupUser"];

const keyOrSessionRoutes = identityRoutes.filter((route) => route.security.some((scheme) => scheme === "DashboardSession" || scheme === "ApiKey") && !CHECKED_ELSEWHERE.includes(route.operationId));

let platform: TestPlatform;
let jwt: string;
let pat: string;
/** agent tokens by scope, and one holding every scope */
const agentTokens: Record<string, string> = {};
let session: string;
let apiKey: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Probe Ltd", contact_email: "ops@probe.test" }, environment: { id: ENV, name: "Development" }, members: [{ sub: "probe-owner", email: "owner@probe.test", name: "Owner" }] }),
  });
  ({ jwt } = await platform.createUser());
  const created = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "all", scopes: ["read", "write"] } });
  pat = (await created.json()).token;
  for (const scopes of [...AGENT_TOKEN_SCOPES.map((scope) => [scope]), [...AGENT_TOKEN_SCOPES]]) {
    const issued = await platform.api("/v0/agent/tokens", { method: "POST", jwt, json: { name: scopes.join(" "), scopes } });
    agentTokens[scopes.length === 1 ? scopes[0]! : "all"] = (await issued.json()).token;
  }
  session = await platform.dashboard.sign({ sub: "probe-owner" });
  const minted = await platform.identity(`/v0/organisation/${ORG}/keys`, { method: "POST", bearer: session, json: { name: "all", env_id: ENV, scopes: ["idsvc.lookup", "idsvc.get_kyc"] } });
  apiKey = (await minted.json()).key;
});
afterAll(() => platform?.stop());

async function call(route: Route, credential: { jwt?: string; pat?: string; agent?: string }) {
  const sample = sampleOf(route);
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(sample.params?.[name])));
  const { agent, ...user } = credential;
  const headers = agent !== undefined ? { "x-platform-token": agent } : undefined;
  const response = await platform.api(path, { method: route.method, ...user, ...(headers && { headers }), ...(sample.body !== undefined && { json: sample.body }) });
  const body = response.status === 204 ? undefined : await response.json();
  return { status: response.status, code: body?.error_code as string | undefined, body };
}

/** The resolvers' refusal of a credential of the wrong kind (e.g. requireJwt given a PAT). */
const refused = (answer: { status: number; code?: string }) => answer.status === 401 || (answer.status === 403 && answer.code === "USR-403-001");

describe("each route's security list matches what its resolvers require", () => {
  it("lists samples of routes of the user schemes only", () => {
    expect(Object.keys(SAMPLES).filter((id) => !userRoutes.some((route) => route.operationId === id))).toEqual([]);
  });

  it.each(userRoutes.map((route) => [route.operationId, route] as const))("%s: a PAT is accepted exactly when PlatformPat is listed", async (_id, route) => {
    const answer = await call(route, { pat });
    expect({ refused: refused(answer), answer }).toMatchObject({ refused: !route.security.includes("PlatformPat") });
    if (!route.security.includes("PlatformPat") && !route.optionalSecurity) expect(answer).toMatchObject({ status: 403, code: "USR-403-001" });
  });

  it.each(userRoutes.filter((route) => route.security.includes("PlatformJwt")).map((route) => [route.operationId, route] as const))(
    "%s: a JWT is accepted where PlatformJwt is listed",
    async (_id, route) => {
      const answer = await call(route, { jwt });
      expect({ refused: refused(answer), answer }).toMatchObject({ refused: false });
      // a derived sample refused as invalid may never reach the resolver: such a route needs an entry in SAMPLES
      if (!SAMPLES[route.operationId]) expect(answer.status, JSON.stringify(answer)).not.toBe(422);
    },
  );
});

describe("no credential", () => {
  it.each(userRoutes.filter((route) => !route.optionalSecurity).map((route) => [route.operationId, route] as const))("%s: answers 401 USR-401-001", async (_id, route) => {
    expect(await call(route, {})).toMatchObject({ status: 401, code: "USR-401-001" });
  });
});

describe("agent tokens reach the AgentTool and AgentAction routes within their scopes, and no other route", () => {
  it.each(userRoutes.map((route) => [route.operationId, route] as const))("%s", async (_id, route) => {
    const all = await call(route, { agent: agentTokens.all });
    const scope = route.agentScope ?? route.agentAction;
    if (!scope) {
      expect(all).toMatchObject({ status: 403, code: "AGT-403-002" });
      return;
    }
    expect(all.status === 401 || all.status === 403, JSON.stringify(all)).toBe(false);
    expect(await call(route, { agent: agentTokens[scope] })).toMatchObject({ status: all.status });
    for (const other of AGENT_TOKEN_SCOPES.filter((s) => s !== scope)) expect(await call(route, { agent: agentTokens[other] })).toMatchObject({ status: 403, code: "AGT-403-001" });
  });
});

async function callIdentity(route: Route, bearer: string) {
  const sample = IDENTITY_SAMPLES[route.operationId]!;
  const values: Record<string, string> = { org_id: ORG, ...sample.params };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  const response = await platform.identity(path, { method: route.method, bearer, ...(sample.body !== undefined && { json: sample.body }) });
  const body = response.status === 204 ? undefined : await response.json();
  return { status: response.status, code: body?.error_code as string | undefined, body };
}

describe("identity routes: the dashboard session and API key schemes", () => {
  it("has a sample request for every route of the two schemes but those checked elsewhere", () => {
    expect(keyOrSessionRoutes.map((route) => route.operationId).sort()).toEqual(Object.keys(IDENTITY_SAMPLES).sort());
  });

  it.each(keyOrSessionRoutes.map((route) => [route.operationId, route] as const))("%s: refuses the scheme it does not list, accepts the one it lists", async (_id, route) => {
    const withSession = await callIdentity(route, session);
    const withKey = await callIdentity(route, apiKey);
    const credentialRefusal = (answer: { status: number }) => answer.status === 401 || answer.status === 403;
    expect({ session: credentialRefusal(withSession), key: credentialRefusal(withKey), withSession, withKey }).toMatchObject({
      session: !route.security.includes("DashboardSession"),
      key: !route.security.includes("ApiKey"),
    });
  });
});
