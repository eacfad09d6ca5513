import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { newId } from "../../../lib/ids.ts";
import type { KycAccessToken, KycProvider } from "./kyc-provider.ts";

/** SDK tokens of the leading providers live for minutes; the SDK asks for a new one when needed. */
export const KYC_TOKEN_TTL_SECONDS = 600;

/**
 * Behaves like the hosted provider offline: applicants get provider-style ids and the SDK token
 * is a short-lived JWT signed with the sandbox's own secret.
 */
export class SandboxKycProvider implements KycProvider {
  readonly name = "sandbox";
  private readonly secret = randomBytes(32);

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
