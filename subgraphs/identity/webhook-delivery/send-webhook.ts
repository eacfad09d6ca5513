import http from "node:http";
import https from "node:https";
import { guardedLookup, systemResolve, type Resolve } from "../../../lib/net/guarded-lookup.ts";
import { publicHttpsUrlProblem, type PublicUrlPolicy } from "../../../lib/net/public-url.ts";
import { ATTEMPT_TIMEOUT_MS } from "./delivery-schedule.ts";

/** The most of a receiver's answer kept with an attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** What one POST came to: the receiver's answer, or why there was none. */
/** The answer's first KiB as text; NUL, which a PostgreSQL text column refuses, becomes U+FFFD so the attempt is still recorded. */
function excerptOf(answer: Buffer): string {
  return answer.subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8").replaceAll("\0", "\uFFFD");
}

export type SendOutcome = { status: number; retry_after: string | null; excerpt: string } | { error: string };

/** Posts one delivery; the delivery job takes another in tests. */
export type SendWebhook = (url: string, body: string, headers: Record<string, string>) => Promise<SendOutcome>;

/**
 * POSTs to an endpoint's URL under the endpoint URL policy: the URL checked again on its face,
 * every resolved address checked at connect and connected to as checked (a name that resolves to
 * a private address is refused unless it is loopback under WEBHOOK_ALLOW_LOOPBACK), no redirect
 * followed, the whole exchange within `timeoutMs`, and only the answer's first KiB read.
 */
export function webhookSender(policy: PublicUrlPolicy, options: { timeoutMs?: number; resolve?: Resolve } = {}): SendWebhook {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const resolve = options.resolve ?? systemResolve;
  return (target, body, headers) => {
    const problem = publicHttpsUrlProblem(target, policy);
    if (problem) return Promise.resolve({ error: `the endpoint's url ${problem}` });
    const url = new URL(target);
    const client = url.protocol === "https:" ? https : http;
    return new Promise<SendOutcome>((settle) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        settle(outcome);
      };
      const request = client.request(url, {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        // a fresh connection per attempt, made through the guarded lookup (no pooled socket to reuse)
        agent: false,
        lookup: guardedLookup(url.protocol, policy.allowLoopbackHttp, resolve, (message) => new Error(message)) as never,
        maxHeaderSize: 16 * 1024,
      });
      const timer = setTimeout(() => finish({ error: `no answer within ${timeoutMs} ms` }), timeoutMs);
      request.on("error", (error) => finish({ error: error.message }));
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        const retryAfter = response.headers["retry-after"];
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () => finish({ status, retry_after: typeof retryAfter === "string" ? retryAfter : null, excerpt: excerptOf(Buffer.concat(chunks)) });
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // the rest of a long answer is not waited for
          if (size >= RESPONSE_EXCERPT_BYTES) answer();
        });
        response.on("end", answer);
        response.on("error", answer);
        response.on("aborted", answer);
      });
      request.end(body);
    });
  };
}
