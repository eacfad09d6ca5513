import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address } from "../route-kit/schemas.ts";

/** A wallet the embedded-wallet provider pregenerated (spec 6), written inline by its routes; its body from RegisterPregeneratedWalletInput. */
export const resource = {
  type: "PregeneratedWallet",
  component: false,
  inputs: { RegisterPregeneratedWalletInput: "PregeneratedWallet" },
  types: {
    RegisterPregeneratedWalletInput: {
      fields: {
        provider_wallet_id: { minLength: 1, maxLength: 255 },
        address: { schema: Address },
        type: { minLength: 1, maxLength: 64, description: "the provider's wallet type, e.g. EVM" },
        issued_at: { description: "epoch milliseconds written in the signed message" },
        signature: { pattern: "^0x[0-9a-fA-F]+$" },
      },
    },
  },
} satisfies RestResource;
