import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { newId } from "../../../lib/ids.ts";
import type { SandboxKycDecision } from "../../../lib/vocabulary/kyc.ts";
import { KYC_DIGEST_ALG_HEADER, KYC_DIGEST_HEADER, signKycPayload } from "../../../lib/webhooks/kyc-payload-digest.ts";
import { KYC_TOKEN_TTL_SECONDS, type KycAccessToken, type KycProvider } from "./kyc-provider.ts";


/** Where the sandbox delivers its decision webhooks: the platform's own KYC receiver. */
export interface SandboxWebhookTarget {
  /** `{SANDBOX_WEBHOOK_BASE_URL}/v0/webhooks/kyc/kyc-provider/events` (PUBLIC_BASE_URL unless set) */
  url: string;
  /** the sandbox's own secret (sandboxWebhookSecret(INTERNAL_SECRET, "kyc")), never a real provider's KYC_WEBHOOK_SECRET */
  secret: string;
}

export interface SandboxDelivery {
  event_type: "applicantReviewed" | "applicantPending";
  /** the receiver's HTTP status */
  webhook_status: number;
}

/** The webhook body the provider sends: flat, Sumsub-like. */
export function sandboxDecisionPayload(input: { user_id: string; applicant_id: string; decision: SandboxKycDecision; now?: Date }) {
  const { decision } = input;
  const reviewed = decision !== "PENDING";
  return {
    type: reviewed ? ("applicantReviewed" as const) : ("applicantPending" as const),
    applicantId: input.applicant_id,
    externalUserId: input.user_id,
    applicantType: "individual",
    correlationId: randomUUID(),
    levelName: "sandbox-basic-kyc",
    sandboxMode: true,
    reviewStatus: reviewed ? "completed" : "pending",
    // Sumsub's format: UTC without a zone designator
    createdAtMs: (input.now ?? new Date()).toISOString().replace("T", " ").replace("Z", ""),
    ...(reviewed && {
      reviewResult: { reviewAnswer: decision, ...(decision === "RED" && { reviewRejectType: "FINAL", rejectLabels: ["SANDBOX_DECISION"] }) },
    }),
  };
}

/**
 * Behaves like the hosted provider offline (sandbox mode only: config refuses it otherwise):
 * applicants get provider-style ids and the SDK token is a short-lived JWT signed with a random
 * key. `decide` plays the provider's review: it POSTs the signed decision webhook to the
 * platform's receiver, so the whole flow (token → submission → decision → webhook → status) runs
 * without the hosted provider.
 */
export class SandboxKycProvider implements KycProvider {
  readonly name = "sandbox";
  private readonly tokenKey = randomBytes(32);

  constructor(private readonly webhook: SandboxWebhookTarget) {}

  /**
   * Sends the review decision as the provider would, signed with the sandbox's own webhook
   * secret (HMAC_SHA256_HEX over the exact bytes sent), which the receiver accepts only in
   * sandbox mode. Throws when the receiver cannot be reached; answers its status otherwise.
   */
  async decide(input: { user_id: string; applicant_id: string; decision: SandboxKycDecision }): Promise<SandboxDelivery> {
    const payload = sandboxDecisionPayload(input);
    const body = JSON.stringify(payload);
    const response = await fetch(this.webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [KYC_DIGEST_HEADER]: signKycPayload(body, this.webhook.secret, "HMAC_SHA256_HEX"),
        [KYC_DIGEST_ALG_HEADER]: "HMAC_SHA256_HEX",
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { event_type: payload.type, webhook_status: response.status };
  }

  async ensureApplicant(input: { user_id: string; existing_applicant_id?: string }) {
    return { applicant_id: input.existing_applicant_id ?? newId("sbxapp") };
  }

  async accessToken(input: { user_id: string; applicant_id: string }): Promise<KycAccessToken> {
    const expires_at = new Date(Date.now() + KYC_TOKEN_TTL_SECONDS * 1000);
    const token = await new SignJWT({ applicantId: input.applicant_id, externalUserId: input.user_id })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer("kyc-sandbox")
      .setSubject(input.applicant_id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expires_at.getTime() / 1000))
      .sign(this.tokenKey);
    return { token, expires_at, applicant_id: input.applicant_id };
  }
}
