import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address, Links, withLinks } from "../route-kit/schemas.ts";
import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import type * as Generated from "./resources.generated.ts";

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

function listLinks(base: string) {
  const self = href(base, "/v0/wallets/pregenerated");
  return { self: link(self), register: link(self, { method: "POST" }) };
}

/** Wallets the embedded-wallet provider pregenerated for the user (claimed later, spec 6). */
export const routes = ({ PREGENERATED_WALLET_FIELDS, PregeneratedWallet, RegisterPregeneratedWalletInput }: typeof Generated) => [
  defineRoute({
    operationId: "registerPregeneratedWallet",
    method: "POST",
    path: "/v0/wallets/pregenerated",
    tag: "Wallets",
    summary: "Register a wallet the embedded-wallet provider pregenerated for the user",
    description: [
      "Ties the provider's pregenerated wallet (its wallet id, EVM address and type) to the calling user, so that the provider's `wallet.pregen_claimed` event (`POST /v0/webhooks/embedded-wallet/wallet-claimed`) is recorded against them. The event is matched by `address` (case-insensitively), the one fact proven here: `provider_wallet_id` is stored as given.",
      "",
      "**Proof of control**: `signature` is the wallet's EIP-191 `personal_sign` signature (the embedded-wallet provider's server-side signing can produce it) over exactly this text, lines joined by `\\n`; `issued_at` must be within 10 minutes of the server's clock. A stale or wrong proof is 400 `WAL-400-001` (a missing one 422), nothing stored.",
      "",
      "```",
      "Register pregenerated wallet",
      "User: <the calling user's id>",
      "Provider Wallet ID: <provider_wallet_id>",
      "Address: <address, EIP-55 checksummed>",
      "Type: <type>",
      "Issued At: <issued_at as ISO 8601 with milliseconds, e.g. 2026-11-21T10:00:00.000Z>",
      "```",
      "",
      "An address is registered for one user only: registering it again answers 409 `WAL-409-005` with one fixed detail, the same whether the caller or another user holds it.",
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    body: RegisterPregeneratedWalletInput,
    operation: `mutation RegisterPregeneratedWallet($input: RegisterPregeneratedWalletInput!) { wallet: register_pregenerated_wallet(input: $input) { ${PREGENERATED_WALLET_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.wallet,
    status: 201,
    links: (_body, { base_url }) => listLinks(base_url),
    responses: { 201: { description: "The registered pregenerated wallet", schema: withLinks(PregeneratedWallet) } },
    errors: ["USR-403-001", "USR-404-001", "WAL-400-001", "WAL-409-005"],
  }),
  defineRoute({
    operationId: "listPregeneratedWallets",
    method: "GET",
    path: "/v0/wallets/pregenerated",
    tag: "Wallets",
    summary: "The wallets pregenerated for the user, with their claim time",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListPregeneratedWallets { pregenerated_wallets { ${PREGENERATED_WALLET_FIELDS} } }`,
    result: (data) => ({ items: data.pregenerated_wallets }),
    links: (_body, { base_url }) => listLinks(base_url),
    responses: { 200: { description: "The pregenerated wallets", schema: Type.Object({ items: Type.Array(PregeneratedWallet), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
];
