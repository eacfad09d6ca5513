import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address, ChainId } from "../route-kit/schemas.ts";

const SIGNATURE = { pattern: "^0x[0-9a-fA-F]+$" };
const NICKNAME_INPUT = { maxLength: 64 };

/**
 * A wallet in REST (spec 2.3): the GraphQL Wallet, its balances at GET /v0/wallets/{wallet_id}/assets;
 * its bodies from RegisterWalletInput, UpdateWalletInput and WalletAddressProofInput.
 */
export const resource = {
  type: "Wallet",
  inputs: { RegisterWalletInput: "Wallet", UpdateWalletInput: "Wallet", WalletAddressProofInput: "Wallet" },
  types: {
    Wallet: { omit: ["assets"], fields: { id: { description: "wallet id ({wallet_id} in paths)" } } },
    RegisterWalletInput: {
      fields: {
        address: { schema: Address },
        chain_id: { schema: ChainId },
        role: { acceptsNull: false, default: "wallet" },
        nickname: NICKNAME_INPUT,
        issued_at: { description: "epoch milliseconds written in the signed message" },
        signature: SIGNATURE,
      },
    },
    // REST refuses null for a flag: absent means unchanged
    UpdateWalletInput: { fields: { nickname: NICKNAME_INPUT, is_primary: { acceptsNull: false }, retry_safe_creation: { acceptsNull: false } } },
    WalletAddressProofInput: {
      fields: { issued_at: { acceptsNull: false, description: "with signature: epoch milliseconds written in the signed message" }, signature: { ...SIGNATURE, acceptsNull: false } },
    },
  },
} satisfies RestResource;
