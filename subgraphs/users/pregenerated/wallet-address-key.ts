/** How addresses are matched: 0x-hex (EVM) addresses case-insensitively, any other format exactly. */
export function walletAddressKey(address: string): string {
  return /^0x[0-9a-fA-F]+$/.test(address) ? address.toLowerCase() : address;
}
