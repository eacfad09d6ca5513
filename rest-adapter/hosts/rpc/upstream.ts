// The upstream nodes of CHAIN_RPC_URLS, reached over HTTP(S) with a bounded timeout. Upstream
// URLs often embed a provider's secret (a path segment or user:password), so they never appear
// in what callers see.
import type { UpstreamCall } from "./protocol.ts";

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

/** The upstream failed as a whole: no JSON-RPC answer came back. */
export class UpstreamError extends Error {
  constructor(
    /** 504 when it timed out, 502 otherwise */
    readonly status: 502 | 504,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UpstreamError";
  }
}

export interface Upstream {
  /** the parsed JSON answer (one response object or an array of them); throws UpstreamError */
  send(payload: UpstreamCall | UpstreamCall[], signal?: AbortSignal): Promise<unknown>;
}

export interface HttpUpstreamOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** An HTTP(S) JSON-RPC endpoint; `user:password@` in the URL becomes Basic authorisation (fetch refuses it in the URL). */
export function httpUpstream(rawUrl: string, options: HttpUpstreamOptions = {}): Upstream {
  const url = new URL(rawUrl);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  const target = url.toString();
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  return {
    async send(payload, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await doFetch(target, { method: "POST", headers, body: JSON.stringify(payload), signal: combined });
        text = await response.text();
      } catch (error) {
        if (timeout.aborted) throw new UpstreamError(504, `the upstream node did not answer within ${timeoutMs / 1000} s`, { cause: error });
        throw new UpstreamError(502, "the upstream node could not be reached", { cause: error });
      }
      if (!response.ok) throw new UpstreamError(502, `the upstream node answered HTTP ${response.status}`);
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new UpstreamError(502, "the upstream node answered with something other than JSON", { cause: error });
      }
    },
  };
}

/** Chains whose upstream can be forwarded to (http or https), and the others (ws, wss), which are not served. */
export function httpUpstreams(chainRpcUrls: Readonly<Record<number, string>>, options: HttpUpstreamOptions = {}): { upstreams: Map<number, Upstream>; skipped: number[] } {
  const upstreams = new Map<number, Upstream>();
  const skipped: number[] = [];
  for (const [chain, url] of Object.entries(chainRpcUrls)) {
    if (/^https?:\/\//i.test(url)) upstreams.set(Number(chain), httpUpstream(url, options));
    else skipped.push(Number(chain));
  }
  return { upstreams, skipped };
}
