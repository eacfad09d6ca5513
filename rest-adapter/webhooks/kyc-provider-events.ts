import { Type } from "@sinclair/typebox";
import { AppError } from "../../lib/errors/app-error.ts";
import { kycEventId, verifyKycPayloadDigest } from "../../lib/webhooks/kyc-payload-digest.ts";
import { defineWebhook } from "./webhooks.ts";

/** The one detail of every refused delivery: it never echoes the digest, the algorithm or the body. */
export const KYC_WEBHOOK_SIGNATURE_DETAIL = "The x-payload-digest signature of the KYC webhook is missing or invalid.";

/**
 * The provider's flat body (Sumsub-like). Only the fields the platform reads are checked; the
 * provider's other fields (correlationId, levelName, reviewStatus, createdAtMs, …) pass through
 * and are part of the de-duplication digest.
 */
export const KycProviderEventEnvelope = Type.Object(
  {
    type: Type.String({ minLength: 1, description: "applicantReviewed and applicantPending change the status; any other type is accepted as a no-op" }),
    applicantId: Type.String({ minLength: 1, description: "the provider applicant (POST /v0/kyc/access-token creates it)" }),
    externalUserId: Type.Optional(Type.String({ minLength: 1, description: "our user id; when it is not the applicant's user the event is a no-op" })),
    reviewResult: Type.Optional(
      Type.Object({
        reviewAnswer: Type.Union([Type.Literal("GREEN"), Type.Literal("RED")], { description: "required for applicantReviewed" }),
        reviewRejectType: Type.Optional(Type.String({ description: "FINAL or RETRY; informational: RED is terminal (spec 3.1)" })),
      }),
    ),
    reviewRejectType: Type.Optional(Type.String({ description: "accepted at the top level too; informational" })),
    correlationId: Type.Optional(Type.String()),
    createdAtMs: Type.Optional(Type.String()),
  },
  { description: "KYC provider event (flat, Sumsub-like)." },
);

export function kycProviderWebhook(secret: string | undefined) {
  return defineWebhook({
    envelope: KycProviderEventEnvelope,
    verify(raw, headers) {
      if (!verifyKycPayloadDigest(raw, headers, secret)) throw new AppError("WHK-401-001", { detail: KYC_WEBHOOK_SIGNATURE_DETAIL });
    },
    check(envelope) {
      if (envelope.type === "applicantReviewed" && envelope.reviewResult === undefined) {
        throw new AppError("GEN-422-001", {
          validation: [{ type: "missing", loc: ["body", "reviewResult"], msg: "Field required", input: envelope, ctx: {} }],
        });
      }
    },
    operation: `mutation KycProviderEvent($input: KycProviderEventInput!) { result: apply_kyc_provider_event(input: $input) { outcome status } }`,
    variables: (envelope) => ({
      input: {
        event_id: kycEventId(envelope),
        type: envelope.type,
        applicant_id: envelope.applicantId,
        external_user_id: envelope.externalUserId ?? null,
        review_answer: envelope.reviewResult?.reviewAnswer ?? null,
      },
    }),
    operationId: "receiveKycProviderEvent",
    path: "/v0/webhooks/kyc/kyc-provider/events",
    tag: "Webhooks",
    summary: "KYC provider events (spec 4.5, 6)",
    description: [
      "Called by the KYC provider. **Signature** (Sumsub-style): `x-payload-digest` is the hex HMAC of the raw body keyed with `KYC_WEBHOOK_SECRET`; `x-payload-digest-alg` is `HMAC_SHA256_HEX` or `HMAC_SHA512_HEX`. Any other algorithm, the legacy `HMAC_SHA1_HEX` included, a missing header, a wrong digest or an unset secret answers 401 `WHK-401-001` with one fixed detail; the comparison is constant-time.",
      "**Mapping** (spec 3.1, 6): `applicantReviewed` + `reviewResult.reviewAnswer` GREEN → `approved`, RED → `rejected` (terminal; `reviewRejectType` is informational); `applicantPending` → `retry`. The user is found through the applicant (`applicantId`); an `externalUserId` naming another user makes the event a no-op.",
      "**Rules**: a move the state table does not allow is accepted (200) and recorded in status_history as `ignored`, never applied; every applied change lands in status_history with cause `kyc_approved`, `kyc_rejected` or `kyc_retry_requested` and the event id. The provider sends no event id: the de-duplication key is `kyc_` + SHA-256 of the verified JSON body, so a replay (and concurrent deliveries of one event) applies once. Unknown applicants and other event types: 200 no-op. A verified body that is not a valid envelope (`applicantReviewed` without `reviewResult` included): 422. A handler failure (e.g. database down) answers 5xx with nothing written, so the provider retries.",
    ].join("\n\n"),
    responses: { 200: { description: "Received (applied, ignored or a no-op)", schema: Type.Object({ received: Type.Literal(true) }) } },
    errors: [401, 422, 500, 503],
  });
}
