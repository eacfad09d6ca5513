import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { withLinks } from "../route-kit/schemas.ts";
import { ONBOARDING_CHECKLIST_FIELDS, ONBOARDING_SAFE_FIELDS, OnboardingChecklist, OnboardingSafe, SubmitOnboardingSafeInput, SubmitOnboardingStepInput } from "../resources/resources.generated.ts";

const OnboardingSafeResponse = withLinks(OnboardingSafe);

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
    body: SubmitOnboardingSafeInput,
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
    body: SubmitOnboardingStepInput,
    operation: `mutation SubmitOnboardingStep($input: SubmitOnboardingStepInput!) { checklist: submit_onboarding_step(input: $input) { ${ONBOARDING_CHECKLIST_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.checklist,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/onboarding/steps")), safe: link(href(base_url, "/v0/user/me/onboarding/safe")) }),
    responses: { 200: { description: "The checklist", schema: withLinks(OnboardingChecklist) } },
    errors: ["USR-403-001", "USR-404-001", "ONB-400-003", "ONB-409-001", "KYC-409-001", "KYC-409-002"],
  }),
];
