import { Type } from "@sinclair/typebox";
import { AppError } from "../../lib/errors/app-error.ts";
import { isFreshKycEvent } from "../../lib/webhooks/kyc-event-freshness.ts";
import { KYC_DIGEST_ALG_HEADER, KYC_DIGEST_ALGORITHMS, KYC_DIGEST_HEADER, kycEventId, verifyKycPayloadDigest } from "../../lib/webhooks/kyc-payload-digest.ts";
import { defineWebhook } from "./webhooks.ts";

/** The one detail of every refused delivery: it never echoes the digest, the algorithm or the body. */
export const KYC_WEBHOOK_SIGNATURE_DETAIL = "The KYC webhook's x-payload-digest signature is missing or invalid, or its createdAtMs is not recent.";

function refused(): AppError {
  return new AppError("WHK-401-001", { detail: KYC_WEBHOOK_SIGNATURE_DETAIL });
}

export interface KycWebhookOptions {
  /** KYC_WEBHOOK_SECRET: the real provider's */
  secret: string | undefined;
  /** sandbox mode: also accept events signed with the sandbox provider's own secret, and events marked sandboxMode */
  sandbox: boolean;
  /** sandboxWebhookSecret(INTERNAL_SECRET, "kyc"); used only in sandbox mode */
  sandboxSecret: string;
  /** KYC_WEBHOOK_TOLERANCE_SECONDS */
  toleranceSeconds: number;
}

/**
 * The provider's flat body (Sumsub-like). Only the fields the platform reads are checked; the
 * provider's other fields (correlationId, levelName, reviewStatus, …) pass through and are part of
 * the de-duplication digest.
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
    createdAtMs: Type.String({
      minLength: 1,
      description: 'when the provider created the event, UTC: Sumsub\'s "yyyy-MM-dd HH:mm:ss.SSS" or ISO 8601; refused (401) when further from the server clock than KYC_WEBHOOK_TOLERANCE_SECONDS',
    }),
    sandboxMode: Type.Optional(Type.Boolean({ description: "true for events from a provider's sandbox: refused (401) unless the platform runs in sandbox mode" })),
  },
  { description: "KYC provider event (flat, Sumsub-like)." },
);

export function kycProviderWebhook(options: KycWebhookOptions) {
  const { secret, sandbox, sandboxSecret, toleranceSeconds } = options;
  return defineWebhook({
    envelope: KycProviderEventEnvelope,
    requestHeaders: [
      { name: KYC_DIGEST_HEADER, required: true, description: "Hex HMAC of the raw body keyed with `KYC_WEBHOOK_SECRET`.", schema: { type: "string", pattern: "^[0-9a-fA-F]+$" } },
      { name: KYC_DIGEST_ALG_HEADER, required: true, description: "The HMAC's hash; any other value is 401 `WHK-401-001`.", schema: { type: "string", enum: Object.keys(KYC_DIGEST_ALGORITHMS) } },
    ],
    verify(raw, headers) {
      if (verifyKycPayloadDigest(raw, headers, secret)) return;
      if (sandbox && verifyKycPayloadDigest(raw, headers, sandboxSecret)) return;
      throw refused();
    },
    check(envelope, _headers, now) {
      // a provider's sandbox (or our own) must never decide about users of a real deployment
      if (envelope.sandboxMode === true && !sandbox) throw refused();
      if (!isFreshKycEvent(envelope.createdAtMs, now, toleranceSeconds)) throw refused();
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
      "Called by the KYC provider. **Signature** (Sumsub-style): `x-payload-digest` is the hex HMAC of the raw body keyed with `KYC_WEBHOOK_SECRET`; `x-payload-digest-alg` is `HMAC_SHA256_HEX` or `HMAC_SHA512_HEX`. Any other algorithm, the legacy `HMAC_SHA1_HEX` included, a missing header, a wrong digest or an unset secret answers 401 `WHK-401-001` with one fixed detail; the comparison is constant-time. In sandbox mode only, events the sandbox provider signed with its own secret (never `KYC_WEBHOOK_SECRET`) are accepted too.",
      `**Freshness**: \`createdAtMs\` (required; Sumsub's \`yyyy-MM-dd HH:mm:ss.SSS\` in UTC, or ISO 8601) more than \`KYC_WEBHOOK_TOLERANCE_SECONDS\` (${toleranceSeconds} s here) from the server clock, in either direction, or unreadable, answers the same 401 before anything is applied; it is covered by the signature, so a captured delivery cannot be replayed later. A provider retry that arrives after the window is refused too: reconcile with the provider then. An event marked \`sandboxMode: true\` answers the same 401 unless the platform runs in sandbox mode.`,
      "**Mapping** (spec 3.1, 6): `applicantReviewed` + `reviewResult.reviewAnswer` GREEN → `approved`, RED → `rejected` (terminal; `reviewRejectType` is informational); `applicantPending` → `retry`. The user is found through the applicant (`applicantId`); an `externalUserId` naming another user makes the event a no-op.",
      "**Rules**: a move the state table does not allow is accepted (200) and recorded in status_history as `ignored`, never applied; every applied change lands in status_history with cause `kyc_approved`, `kyc_rejected` or `kyc_retry_requested` and the event id. The provider sends no event id: the de-duplication key is `kyc_` + SHA-256 of the verified JSON body, so a replay (and concurrent deliveries of one event) applies once. Unknown applicants and other event types: 200 no-op. A verified body that is not a valid envelope (`applicantReviewed` without `reviewResult` included): 422. A handler failure (e.g. database down) answers 5xx with nothing written, so the provider retries.",
    ].join("\n\n"),
    responses: { 200: { description: "Received (applied, ignored or a no-op)", schema: Type.Object({ received: Type.Literal(true) }) } },
    errors: ["WHK-401-001"],
  });
}
