import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route.ts";
import { href, link } from "../links.ts";
import { Address, Links, literalUnion } from "../schemas.ts";
import { WALLET_FIELDS } from "../resources.generated.ts";
import { ONBOARDING_SAFE_MODES, ONBOARDING_STEP_ACTIONS, ONBOARDING_STEPS, STEP_STATUSES } from "../../lib/vocabulary/onboarding.ts";

const ONBOARDING_SAFE_FIELDS = `mode chain_id required step_status
  wallet { ${WALLET_FIELDS} }
  config {
    ... on AgentCreate2ConfigData { mode safe_address owners threshold salt_nonce event_id }
    ... on UserSignedDeployData { mode safe_address owners threshold factory_address singleton_address initializer salt_nonce deploy_transaction { chain_id to data value } transaction_hash }
    ... on BYOConfigData { mode safe_address accepted_versions required_owner }
  }`;

const STEP_STATUS = literalUnion(STEP_STATUSES, {
  description:
    "not_started: nothing happened yet; awaiting_user: prepared, waiting for the user; processing: the platform or a provider is working (poll); completed; failed: the last attempt failed (act again; terminal for a rejected KYC); skipped: an optional step the user skipped",
});
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const AgentCreate2ConfigData = Type.Object(
  {
    mode: Type.Literal("agent_create2"),
    safe_address: Nullable(Type.String({ description: "predicted (CREATE2) until deployed" })),
    owners: Type.Array(Type.String()),
    threshold: Nullable(Type.Integer()),
    salt_nonce: Nullable(Type.String({ description: "uint256 as a decimal string" })),
    event_id: Nullable(Type.String({ description: "safe_creation_event_id of the deployment" })),
  },
  { title: "AgentCreate2ConfigData" },
);
const UserSignedDeployData = Type.Object(
  {
    mode: Type.Literal("user_signed_deploy"),
    safe_address: Nullable(Type.String()),
    owners: Type.Array(Type.String()),
    threshold: Nullable(Type.Integer()),
    factory_address: Type.String({ description: "SafeProxyFactory v1.4.1" }),
    singleton_address: Type.String(),
    initializer: Nullable(Type.String({ description: "Safe.setup calldata" })),
    salt_nonce: Nullable(Type.String()),
    deploy_transaction: Nullable(
      Type.Object({ chain_id: Type.Integer(), to: Type.String(), data: Type.String(), value: Type.String() }, { description: "the createProxyWithNonce call the user signs and sends" }),
    ),
    transaction_hash: Nullable(Type.String()),
  },
  { title: "UserSignedDeployData" },
);
const BYOConfigData = Type.Object(
  {
    mode: Type.Literal("byo"),
    safe_address: Nullable(Type.String({ description: "null until submitted" })),
    accepted_versions: Type.Array(Type.String(), { description: "Safe versions accepted (VERSION())" }),
    required_owner: Type.String({ description: "the user's primary EOA must be an owner" }),
  },
  { title: "BYOConfigData" },
);

const OnboardingSafeResponse = Type.Object(
  {
    _links: Links,
    mode: literalUnion(ONBOARDING_SAFE_MODES),
    config: Type.Union([UserSignedDeployData, BYOConfigData, AgentCreate2ConfigData], { discriminator: { propertyName: "mode" } }),
    wallet: Type.Union([Type.Ref("Wallet"), Type.Null()]),
    chain_id: Type.Union([Type.Integer(), Type.Null()]),
    required: Type.Boolean(),
    step_status: STEP_STATUS,
  },
  { title: "OnboardingSafeResponse" },
);

const Checklist = Type.Object({
  steps: Type.Array(Type.Object({ name: Type.String(), step_status: STEP_STATUS, required: Type.Boolean(), skippable: Type.Boolean() })),
  _links: Links,
});

function safeLinks(base: string, body: { wallet: { id: number } | null; step_status: string }) {
  const self = href(base, "/v0/user/me/onboarding/safe");
  return {
    self: link(self),
    ...(body.step_status !== "completed" && body.step_status !== "processing" && { submit: link(self, { method: "POST", description: "choose a mode or submit the Safe" }) }),
    ...(body.wallet && { wallet: link(href(base, "/v0/wallets/{wallet_id}", { wallet_id: body.wallet.id })) }),
    steps: link(href(base, "/v0/user/me/onboarding/steps"), { method: "POST" }),
  };
}

export const onboardingRoutes = [
  defineRoute({
    operationId: "getOnboardingSafe",
    method: "GET",
    path: "/v0/user/me/onboarding/safe",
    tag: "User",
    summary: "The Safe-onboarding state of the user",
    description: "`config` is one of three variants discriminated by `mode`; inner fields are null when no work is prepared.",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query OnboardingSafe { onboarding: onboarding_safe { ${ONBOARDING_SAFE_FIELDS} } }`,
    result: (data) => data.onboarding,
    links: (body, { base_url }) => safeLinks(base_url, body),
    responses: { 200: { description: "OnboardingSafeResponse", schema: OnboardingSafeResponse } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "submitOnboardingSafe",
    method: "POST",
    path: "/v0/user/me/onboarding/safe",
    tag: "User",
    summary: "Choose the Safe mode or submit the Safe",
    description: [
      "- `agent_create2`: the platform's signer workflow deploys the Safe (registration starts it); submitting again retries a failed deployment.",
      "- `byo` with `safe_address`: an existing Safe (v1.3.0 or v1.4.1, the primary EOA among its owners, on the primary chain) becomes the primary Safe, checked over `CHAIN_RPC_URLS` (502 `CHN-502-001` when the chain cannot be reached; 400 `ONB-400-002` for an unusable Safe). The primary EOA must be proven first (403 `WAL-403-001` while its `address_verified` is false: POST /v0/wallets/{wallet_id}/address-proof), so an address registered by someone else cannot take its owner's Safe.",
      "- `user_signed_deploy` with `transaction_hash`: the user sent `config.deploy_transaction`; the Safe is `processing` until it is on chain.",
      "Without the address or hash, the mode is only recorded. 400 `ONB-400-001` when fields do not match the mode; 409 `ONB-409-001` while a Safe is deploying or deployed.",
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({
      mode: literalUnion(ONBOARDING_SAFE_MODES),
      safe_address: Type.Optional(Address),
      transaction_hash: Type.Optional(Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" })),
    }),
    operation: `mutation SubmitOnboardingSafe($input: SubmitOnboardingSafeInput!) { onboarding: submit_onboarding_safe(input: $input) { ${ONBOARDING_SAFE_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.onboarding,
    links: (body, { base_url }) => safeLinks(base_url, body),
    responses: { 200: { description: "OnboardingSafeResponse", schema: OnboardingSafeResponse } },
    errors: ["USR-403-001", "USR-404-001", "ONB-400-001", "ONB-400-002", "ONB-409-001", "WAL-403-001", "WAL-429-001", "CHN-502-001"],
  }),
  defineRoute({
    operationId: "submitOnboardingStep",
    method: "POST",
    path: "/v0/user/me/onboarding/steps",
    tag: "User",
    summary: "Submit one onboarding step",
    description:
      "`{name, action}`: `complete` on `kyc` submits the documents (as `POST /v0/kyc/submissions`); `complete` on `phone` or `safe` is accepted once their own flow finished them (409 `ONB-409-001` otherwise); `skip` is allowed for `phone` only (400 `ONB-400-003`). Answers the checklist (safe, phone, kyc).",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({
      name: literalUnion(ONBOARDING_STEPS),
      action: literalUnion(ONBOARDING_STEP_ACTIONS),
    }),
    operation: `mutation SubmitOnboardingStep($input: SubmitOnboardingStepInput!) { checklist: submit_onboarding_step(input: $input) { steps { name step_status required skippable } } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.checklist,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/onboarding/steps")), safe: link(href(base_url, "/v0/user/me/onboarding/safe")) }),
    responses: { 200: { description: "The checklist", schema: Checklist } },
    errors: ["USR-403-001", "USR-404-001", "ONB-400-003", "ONB-409-001", "KYC-409-001", "KYC-409-002"],
  }),
];
