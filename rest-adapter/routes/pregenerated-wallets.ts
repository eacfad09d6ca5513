import { Type } from "@sinclair/typebox";
import { href, link } from "../links.ts";
import { defineRoute } from "../route.ts";
import { Links } from "../schemas.ts";

const FIELDS = "id provider_wallet_id address type claimed_at created_at";

const PregeneratedWallet = Type.Object({
  id: Type.Integer(),
  provider_wallet_id: Type.String(),
  address: Type.String(),
  type: Type.String(),
  claimed_at: Type.Union([Type.Integer(), Type.String(), Type.Null()], { description: "set by the wallet.pregen_claimed webhook; null until claimed" }),
  created_at: Type.Union([Type.Integer(), Type.String()]),
});

function listLinks(base: string) {
  const self = href(base, "/v0/wallets/pregenerated");
  return { self: link(self), register: link(self, { method: "POST" }) };
}

/** Wallets the embedded-wallet provider pregenerated for the user (claimed later, spec 6). */
export const pregeneratedWalletRoutes = [
  defineRoute({
    operationId: "registerPregeneratedWallet",
    method: "POST",
    path: "/v0/wallets/pregenerated",
    tag: "Wallets",
    summary: "Register a wallet the embedded-wallet provider pregenerated for the user",
    description:
      "Ties the provider's pregenerated wallet (its wallet id, address and type) to the calling user, so that the provider's `wallet.pregen_claimed` event (`POST /v0/webhooks/embedded-wallet/wallet-claimed`) can be recorded against them; the event is matched by `provider_wallet_id`, else by `address` (0x addresses case-insensitively). A provider wallet id or address is registered for one user only (409 `WAL-409-005`). The provider's record is not checked here: register the wallet from the flow that requested it.",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({
      provider_wallet_id: Type.String({ minLength: 1, maxLength: 255 }),
      address: Type.String({ minLength: 1, maxLength: 255 }),
      type: Type.String({ minLength: 1, maxLength: 64, description: "the provider's wallet type, e.g. EVM" }),
    }),
    operation: `mutation RegisterPregeneratedWallet($input: RegisterPregeneratedWalletInput!) { wallet: register_pregenerated_wallet(input: $input) { ${FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.wallet,
    status: 201,
    links: (_body, { base_url }) => listLinks(base_url),
    responses: { 201: { description: "The registered pregenerated wallet", schema: PregeneratedWallet } },
    errors: [401, 403, 404, 409, 422],
  }),
  defineRoute({
    operationId: "listPregeneratedWallets",
    method: "GET",
    path: "/v0/wallets/pregenerated",
    tag: "Wallets",
    summary: "The wallets pregenerated for the user, with their claim time",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListPregeneratedWallets { pregenerated_wallets { ${FIELDS} } }`,
    result: (data) => ({ items: data.pregenerated_wallets }),
    links: (_body, { base_url }) => listLinks(base_url),
    responses: { 200: { description: "The pregenerated wallets", schema: Type.Object({ items: Type.Array(PregeneratedWallet), _links: Links }) } },
    errors: [401, 403, 404],
  }),
];
