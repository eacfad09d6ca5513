import { Type } from "@sinclair/typebox";
import { defineRoute, SANDBOX_TAG } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { KYC_ACCESS_TOKEN_FIELDS, KYC_STATUS_FIELDS, KycAccessToken, KycStatus } from "../resources/resources.generated.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";
import { SANDBOX_KYC_DECISIONS } from "../../lib/vocabulary/kyc.ts";

function kycLinks(base: string) {
  return {
    self: link(href(base, "/v0/kyc/status")),
    access_token: link(href(base, "/v0/kyc/access-token"), { method: "POST" }),
    submit: link(href(base, "/v0/kyc/submissions"), { method: "POST" }),
  };
}

export const kycRoutes = [
  defineRoute({
    operationId: "createKycAccessToken",
    method: "POST",
    path: "/v0/kyc/access-token",
    tag: "KYC",
    summary: "A short-lived token for the verification provider's web SDK",
    description:
      "Creates the user's applicant at the provider (`KYC_PROVIDER`) on first call (externalUserId = the user id). 409 `KYC-409-001` once the user is rejected (terminal); 502 `KYC-502-001` when the provider fails; 503 `KYC-503-001` when no provider is configured.",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `mutation KycAccessToken { token: kyc_access_token { ${KYC_ACCESS_TOKEN_FIELDS} } }`,
    result: (data) => data.token,
    links: (_body, { base_url }) => kycLinks(base_url),
    responses: {
      200: {
        description: "The token",
        schema: withLinks(KycAccessToken),
      },
    },
    errors: ["USR-403-001", "USR-404-001", "KYC-409-001", "KYC-502-001", "KYC-503-001"],
  }),
  defineRoute({
    operationId: "getKycStatus",
    method: "GET",
    path: "/v0/kyc/status",
    tag: "KYC",
    summary: "Verification status",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query KycStatus { kyc: kyc_status { ${KYC_STATUS_FIELDS} } }`,
    result: (data) => data.kyc,
    links: (_body, { base_url }) => kycLinks(base_url),
    responses: { 200: { description: "The status", schema: withLinks(KycStatus) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "submitKyc",
    method: "POST",
    path: "/v0/kyc/submissions",
    tag: "KYC",
    summary: "Documents submitted in the provider SDK: start or resubmit verification",
    description:
      "Moves `pending` → `in_progress` (cause `kyc_started`) and `retry` → `in_progress` (cause `kyc_resubmitted`), spec 3.1. Needs the applicant created by `POST /v0/kyc/access-token` (409 `KYC-409-002`); any other status answers 409 `KYC-409-001` (`rejected` is terminal). The provider's decision then arrives by webhook.",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `mutation SubmitKyc { kyc: submit_kyc { ${KYC_STATUS_FIELDS} } }`,
    result: (data) => data.kyc,
    status: 202,
    links: (_body, { base_url }) => kycLinks(base_url),
    responses: { 202: { description: "Under review", schema: withLinks(KycStatus) } },
    errors: ["USR-403-001", "USR-404-001", "KYC-409-001", "KYC-409-002"],
  }),
  defineRoute({
    operationId: "decideKycInSandbox",
    method: "POST",
    path: "/v0/kyc/sandbox/decision",
    tag: SANDBOX_TAG,
    summary: "Sandbox mode only: make the sandbox provider decide the review and send its webhook",
    description:
      "**Exists only in sandbox mode** (`SANDBOX=true`, the default unless `NODE_ENV=production`); otherwise this path answers 404 like any unknown path and is not in this document. Plays the KYC provider offline. The sandbox provider builds the provider event (`GREEN` → `applicantReviewed` GREEN, `RED` → `applicantReviewed` RED, `PENDING` → `applicantPending`, marked `sandboxMode: true`), signs it with the sandbox's own secret (`HMAC_SHA256_HEX`; never `KYC_WEBHOOK_SECRET`, and accepted by the receiver only in sandbox mode) and POSTs it to `{PUBLIC_BASE_URL}/v0/webhooks/kyc/kyc-provider/events`, which applies it like any provider delivery (a decision the status does not allow is recorded as ignored). " +
      "Answers the receiver's status and the account status afterwards. 404 also when `KYC_PROVIDER` is not `sandbox`; 409 `KYC-409-002` without an applicant; 502 `KYC-502-001` when the receiver cannot be reached or does not answer 200 (PUBLIC_BASE_URL must reach this listener).",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ answer: literalUnion(SANDBOX_KYC_DECISIONS) }),
    operation: `mutation KycSandboxDecision($answer: String!) { decision: kyc_sandbox_decision(answer: $answer) { answer event_type applicant_id webhook_status status } }`,
    variables: ({ body }) => ({ answer: body.answer }),
    result: (data) => data.decision,
    links: (_body, { base_url }) => kycLinks(base_url),
    responses: {
      200: {
        description: "The decision was delivered",
        schema: Type.Object({
          answer: Type.String(),
          event_type: Type.String(),
          applicant_id: Type.String(),
          webhook_status: Type.Integer(),
          status: Type.String({ description: "the account status after the delivery" }),
          _links: Links,
        }),
      },
    },
    errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "KYC-409-002", "KYC-502-001"],
  }),
];
