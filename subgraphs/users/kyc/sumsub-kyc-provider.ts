import { createHmac } from "node:crypto";
import type { SumsubSettings } from "../../../lib/provider-config.ts";
import { KYC_TOKEN_TTL_SECONDS, type KycAccessToken, type KycProvider } from "./kyc-provider.ts";

const TIMEOUT_MS = 10_000;

/**
 * Sumsub's request signature: hex HMAC-SHA256 with the secret key over
 * `{X-App-Access-Ts}{METHOD}{path with query}{body}` (the body exactly as sent, empty without one).
 */
export function sumsubSignature(secretKey: string, ts: number, method: string, pathWithQuery: string, body: string): string {
  return createHmac("sha256", secretKey).update(`${ts}${method.toUpperCase()}${pathWithQuery}${body}`).digest("hex");
}

/** A failed provider call; the message names the status and the provider's code, never the body. */
export class SumsubError extends Error {
  constructor(
    readonly status: number,
    method: string,
    path: string,
    code?: unknown,
  ) {
    super(`Sumsub answered ${status} to ${method} ${path.split("?")[0]}${code !== undefined ? ` (code ${String(code)})` : ""}`);
    this.name = "SumsubError";
  }
}

/**
 * The hosted KYC provider (Sumsub's API): the applicant is created with externalUserId = our user
 * id at the configured level, and the web SDK gets an access token for that user. Decisions
 * arrive by webhook (KYC_WEBHOOK_SECRET), never from this client.
 */
export class SumsubKycProvider implements KycProvider {
  readonly name = "sumsub";

  constructor(
    private readonly settings: SumsubSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private async call(method: "GET" | "POST", pathWithQuery: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const ts = Math.floor(this.now() / 1000);
    const response = await fetch(this.settings.baseUrl + pathWithQuery, {
      method,
      headers: {
        accept: "application/json",
        ...(payload !== undefined && { "content-type": "application/json" }),
        "X-App-Token": this.settings.appToken,
        "X-App-Access-Ts": String(ts),
        "X-App-Access-Sig": sumsubSignature(this.settings.secretKey, ts, method, pathWithQuery, body),
      },
      ...(payload !== undefined && { body }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, json: typeof json === "object" && json !== null ? json : {} };
  }

  private idOf(answer: { status: number; json: Record<string, unknown> }, method: string, path: string): string {
    if (typeof answer.json.id !== "string" || answer.json.id === "") throw new SumsubError(answer.status, method, path, "no applicant id");
    return answer.json.id;
  }

  async ensureApplicant(input: { user_id: string; existing_applicant_id?: string }): Promise<{ applicant_id: string }> {
    if (input.existing_applicant_id) return { applicant_id: input.existing_applicant_id };
    const create = `/resources/applicants?levelName=${encodeURIComponent(this.settings.levelName)}`;
    const created = await this.call("POST", create, { externalUserId: input.user_id });
    if (created.status >= 200 && created.status < 300) return { applicant_id: this.idOf(created, "POST", create) };
    // 409: the applicant exists already (an earlier attempt whose answer we lost): read it back
    if (created.status !== 409) throw new SumsubError(created.status, "POST", create, created.json.code);
    const find = `/resources/applicants/-;externalUserId=${encodeURIComponent(input.user_id)}/one`;
    const found = await this.call("GET", find);
    if (found.status !== 200) throw new SumsubError(found.status, "GET", find, found.json.code);
    return { applicant_id: this.idOf(found, "GET", find) };
  }

  async accessToken(input: { user_id: string; applicant_id: string }): Promise<KycAccessToken> {
    const path = "/resources/accessTokens/sdk";
    const expires_at = new Date(this.now() + KYC_TOKEN_TTL_SECONDS * 1000);
    const answer = await this.call("POST", path, { userId: input.user_id, levelName: this.settings.levelName, ttlInSecs: KYC_TOKEN_TTL_SECONDS });
    if (answer.status !== 200) throw new SumsubError(answer.status, "POST", path, answer.json.code);
    if (typeof answer.json.token !== "string" || answer.json.token === "") throw new SumsubError(answer.status, "POST", path, "no token");
    return { token: answer.json.token, expires_at, applicant_id: input.applicant_id };
  }
}
