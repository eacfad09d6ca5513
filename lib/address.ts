import { getAddress, isAddress, type Address } from "viem";
import { validationError } from "./errors/app-error.ts";

/**
 * A 20-byte hex address, stored EIP-55 checksummed. All-lower or all-upper input is accepted;
 * mixed case must carry a valid checksum (a wrong one is most likely a typo).
 */
export function checksummedAddress(value: string, loc: (string | number)[]): Address {
  if (!isAddress(value, { strict: true })) throw validationError(loc, "Value error, not a valid EIP-55 address", value);
  return getAddress(value);
}
