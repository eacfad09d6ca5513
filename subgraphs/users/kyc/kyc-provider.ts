/** SDK tokens of the leading providers live for minutes; the SDK asks for a new one when needed. */
export const KYC_TOKEN_TTL_SECONDS = 600;

/** A short-lived token for the verification provider's web SDK. */
export interface KycAccessToken {
  token: string;
  expires_at: Date;
  applicant_id: string;
}

/**
 * The external identity-verification provider. The sandbox implementation signs its own tokens
 * so the whole flow runs offline (sandbox mode only); Sumsub's implements them over HTTP.
 */
export interface KycProvider {
  readonly name: string;
  /** creates the applicant on first use (externalUserId = our user id) and is idempotent afterwards */
  ensureApplicant(input: { user_id: string; existing_applicant_id?: string }): Promise<{ applicant_id: string }>;
  accessToken(input: { user_id: string; applicant_id: string }): Promise<KycAccessToken>;
}
