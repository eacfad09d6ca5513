import { parseAbi, type Address, type Hex } from "viem";

/**
 * Safe v1.4.1 canonical deployments (safe-global/safe-deployments, src/assets/v1.4.1). They sit at
 * the same address on every chain that has them, so one table serves all chains.
 */
export const SAFE_PROXY_FACTORY: Address = "0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67";
export const SAFE_SINGLETON: Address = "0x41675C099F32341bf84BFc5382aF534df5C7461a";
export const SAFE_L2_SINGLETON: Address = "0x29fcB43b46531BcA003ddC8FCB67FFE91900C762";
export const COMPATIBILITY_FALLBACK_HANDLER: Address = "0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99";

const ETHEREUM_MAINNET = 1;

/**
 * The singleton a new Safe points at. SafeL2 emits an event for every Safe transaction, which is
 * what indexers on L2s and testnets rely on; Ethereum mainnet is indexed by call tracing, where the
 * plain Safe is cheaper per transaction (Safe{Wallet} deploys the plain Safe there too).
 * Consequence: the same owners and salt nonce give one address on Ethereum, another elsewhere.
 */
export function safeSingletonFor(chainId: number): Address {
  return chainId === ETHEREUM_MAINNET ? SAFE_SINGLETON : SAFE_L2_SINGLETON;
}

/**
 * `SafeProxyFactory.proxyCreationCode()` of the v1.4.1 factory: the creation code of SafeProxy
 * (solc 0.7.6), ending with the revert string "Invalid singleton address provided". Only its
 * metadata hash (`…03d1488e…`) tells it apart from the v1.3.0 proxy, so a wrong copy still looks
 * plausible: the unit test pins its keccak256 and a published address vector.
 */
export const SAFE_PROXY_CREATION_CODE: Hex =
  "0x608060405234801561001057600080fd5b506040516101e63803806101e68339818101604052602081101561003357600080fd5b8101908080519060200190929190505050600073ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff1614156100ca576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260228152602001806101c46022913960400191505060405180910390fd5b806000806101000a81548173ffffffffffffffffffffffffffffffffffffffff021916908373ffffffffffffffffffffffffffffffffffffffff1602179055505060ab806101196000396000f3fe608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea264697066735822122003d1488ee65e08fa41e58e888a9865554c535f2c77126a82cb4c0f917f31441364736f6c63430007060033496e76616c69642073696e676c65746f6e20616464726573732070726f7669646564";

export const SAFE_ABI = parseAbi([
  "function setup(address[] _owners, uint256 _threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)",
]);

export const SAFE_PROXY_FACTORY_ABI = parseAbi([
  "function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns (address proxy)",
  "event ProxyCreation(address indexed proxy, address singleton)",
]);
