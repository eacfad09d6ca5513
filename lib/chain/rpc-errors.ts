import {
  BaseError,
  HttpRequestError,
  InternalRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  ResourceUnavailableRpcError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";

/** viem errors that mean the chain gave no answer (network, HTTP status, timeout, limits, node failure). */
const UNAVAILABLE = [
  HttpRequestError,
  TimeoutError,
  WebSocketRequestError,
  SocketClosedError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  InternalRpcError,
];

/**
 * Whether a failed call is the chain's silence rather than the contract's answer. A revert (nodes
 * word it differently) or an address without code is an answer ("not valid"), not a failure:
 * callers answer the first with 502/424 (retry) and the second with 401 (re-sign).
 */
export function isRpcUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => UNAVAILABLE.some((type) => e instanceof type)) !== null;
}
