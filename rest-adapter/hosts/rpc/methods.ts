// Which JSON-RPC methods the RPC host forwards. The host serves browsers and mobile apps holding
// PUBLIC keys, so it is an explicit allow-list of reads plus eth_sendRawTransaction (the caller
// signed it already): anything else is answered here and never reaches the upstream node.

/** Forwarded to the chain's upstream (CHAIN_RPC_URLS). */
export const ALLOWED_METHODS: readonly string[] = Object.freeze([
  // chain and node identity
  "eth_chainId",
  "net_version",
  "net_listening",
  "web3_clientVersion",
  "web3_sha3",
  "eth_syncing",
  "eth_blockNumber",
  // fees
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_blobBaseFee",
  // state
  "eth_getBalance",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getTransactionCount",
  "eth_getProof",
  // execution without a transaction
  "eth_call",
  "eth_estimateGas",
  "eth_createAccessList",
  "eth_simulateV1",
  // blocks
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getUncleCountByBlockNumber",
  "eth_getUncleCountByBlockHash",
  "eth_getUncleByBlockNumberAndIndex",
  "eth_getUncleByBlockHashAndIndex",
  // transactions and logs
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionReceipt",
  "eth_getLogs",
  // a transaction the caller signed itself
  "eth_sendRawTransaction",
]);

const ALLOWED = new Set(ALLOWED_METHODS);

export type MethodVerdict =
  | { allowed: true }
  /** `refused`: a known method this host will not run (signing, administration, node state); `unknown`: not on the list */
  | { allowed: false; kind: "refused" | "unknown"; reason: string };

interface Refusal {
  test: (method: string) => boolean;
  reason: string;
  /** for the OpenAPI document */
  label: string;
}

const exact = (...names: string[]) => {
  const set = new Set(names);
  return (method: string) => set.has(method);
};
const prefixed = (...prefixes: string[]) => (method: string) => prefixes.some((p) => method.startsWith(p));

const SIGNING = "the RPC host holds no accounts and never signs: sign in the wallet and send eth_sendRawTransaction";

/** Refused with -32004 and a reason; checked in order. */
export const REFUSALS: readonly Refusal[] = Object.freeze([
  {
    label: "eth_accounts, eth_requestAccounts, eth_coinbase, eth_sign, eth_signTransaction, eth_signTypedData*, eth_sendTransaction, personal_*",
    test: (m: string) => exact("eth_accounts", "eth_requestAccounts", "eth_coinbase", "eth_sign", "eth_signTransaction", "eth_sendTransaction")(m) || prefixed("eth_signTypedData", "personal_")(m),
    reason: SIGNING,
  },
  {
    label: "admin_*, debug_*, trace_*, miner_*, txpool_*, engine_*, clique_*, les_*, parity_*, anvil_*, hardhat_*, evm_*, tevm_*, ganache_*",
    test: prefixed("admin_", "debug_", "trace_", "miner_", "txpool_", "engine_", "clique_", "les_", "parity_", "anvil_", "hardhat_", "evm_", "tevm_", "ganache_"),
    reason: "administrative, debugging and node-control methods are not available on the RPC host",
  },
  {
    label: "eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges, eth_getFilterLogs, eth_uninstallFilter, eth_subscribe, eth_unsubscribe",
    test: exact("eth_newFilter", "eth_newBlockFilter", "eth_newPendingTransactionFilter", "eth_getFilterChanges", "eth_getFilterLogs", "eth_uninstallFilter", "eth_subscribe", "eth_unsubscribe"),
    reason: "filters and subscriptions live on one upstream node and are shared by every caller: poll eth_getLogs and eth_blockNumber instead",
  },
]);

export function classifyMethod(method: string): MethodVerdict {
  if (ALLOWED.has(method)) return { allowed: true };
  for (const refusal of REFUSALS) if (refusal.test(method)) return { allowed: false, kind: "refused", reason: refusal.reason };
  return { allowed: false, kind: "unknown", reason: "not one of the methods the RPC host forwards (see rpc_docs)" };
}
