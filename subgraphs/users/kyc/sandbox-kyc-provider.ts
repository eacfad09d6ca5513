import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { newId } from "../../../lib/ids.ts";
import { KYC_DIGEST_ALG_HEADER, KYC_DIGEST_HEADER, signKycPayload } from "../../../lib/webhooks/kyc-payload-digest.ts";
import type { KycAccessToken, KycProvider } from "./kyc-provider.ts";

/** SDK tokens of the leading providers live for minutes; the SDK asks for a new one when needed. */
export const KYC_TOKEN_TTL_SECONDS = 600;

/** The review decision a developer asks the sandbox for (POST /v0/kyc/sandbox/decision). */
export const SANDBOX_DECISIONS = ["GREEN", "RED", "PENDING"] as const;
export type SandboxDecision = (typeof SANDBOX_DECISIONS)[number];

/** Where the sandbox delivers its decision webhooks: the platform's own KYC receiver. */
export interface SandboxWebhookTarget {
  /** `{PUBLIC_BASE_URL}/v0/webhooks/kyc/kyc-provider/events` */
  url: string;
  /** KYC_WEBHOOK_SECRET; without it the sandbox cannot sign and sends nothing */
  secret?: string;
}

export interface SandboxDelivery {
  event_type: "applicantReviewed" | "applicantPending";
  /** the receiver's HTTP status */
  webhook_status: number;
}

/** The webhook body the provider sends: flat, Sumsub-like. */
export function sandboxDecisionPayload(input: { user_id: string; applicant_id: string; decision: SandboxDecision; now?: Date }) {
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
    createdAtMs: (input.now ?? new Date()).toISOString(),
    ...(reviewed && {
      reviewResult: { reviewAnswer: decision, ...(decision === "RED" && { reviewRejectType: "FINAL", rejectLabels: ["SANDBOX_DECISION"] }) },
    }),
  };
}

/**
 * Behaves like the hosted provider offline: applicants get provider-style ids and the SDK token
 * is a short-lived JWT signed with the sandbox's own secret. `decide` plays the provider's
 * review: it POSTs the signed decision webhook to the platform's receiver, so the whole flow
 * (token → submission → decision → webhook → status) runs without the hosted provider.
 */
export class SandboxKycProvider implements KycProvider {
  readonly name = "sandbox";
  private readonly secret = randomBytes(32);

  constructor(private readonly webhook?: SandboxWebhookTarget) {}

  /** True when decisions can be delivered (a receiver URL and KYC_WEBHOOK_SECRET are configured). */
  get canDeliverDecisions(): boolean {
    return Boolean(this.webhook?.url && this.webhook.secret);
  }

  /**
   * Sends the review decision as the provider would: signed with KYC_WEBHOOK_SECRET
   * (HMAC_SHA256_HEX over the exact bytes sent). Throws when nothing is configured or the
   * receiver cannot be reached; answers the receiver's status otherwise.
   */
  async decide(input: { user_id: string; applicant_id: string; decision: SandboxDecision }): Promise<SandboxDelivery> {
    if (!this.webhook?.url || !this.webhook.secret) throw new Error("sandbox KYC provider: no webhook URL or KYC_WEBHOOK_SECRET configured");
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
      .sign(this.secret);
    return { token, expires_at, applicant_id: input.applicant_id };
  }
}
