import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address, ChainId, Links } from "../route-kit/schemas.ts";
import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import type * as Generated from "./resources.generated.ts";

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

const WalletId = Type.Object({ wallet_id: Type.Integer({ minimum: 1 }) });

function walletLinks(base: string, wallet: { id: number }) {
  const self = href(base, "/v0/wallets/{wallet_id}", { wallet_id: wallet.id });
  return {
    self: link(self),
    update: link(self, { method: "PATCH" }),
    delete: link(self, { method: "DELETE" }),
    list: link(href(base, "/v0/wallets")),
  };
}

export const routes = ({ RegisterWalletInput, UpdateWalletInput, Wallet, WALLET_FIELDS, WalletAddressProofInput }: typeof Generated) => [
  defineRoute({
    operationId: "listWallets",
    method: "GET",
    path: "/v0/wallets",
    tag: "Wallets",
    summary: "The user's EOA and Safe wallets",
    description: "Signer-only addresses never appear here; read them by id.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { is_eoa: true },
    query: Type.Object({
      chain_id: Type.Optional(Type.Integer({ minimum: 1 })),
      is_eoa: Type.Optional(Type.Boolean({ description: "true = EOA, false = Safe" })),
    }),
    operation: `query ListWallets($chain_id: Int, $is_eoa: Boolean) { wallets(chain_id: $chain_id, is_eoa: $is_eoa) { ${WALLET_FIELDS} } }`,
    variables: ({ query }) => ({ chain_id: query.chain_id ?? null, is_eoa: query.is_eoa ?? null }),
    result: (data) => ({ items: data.wallets }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/wallets")), register: link(href(base_url, "/v0/wallets"), { method: "POST" }) }),
    responses: { 200: { description: "The wallets", schema: Type.Object({ items: Type.Array(Type.Ref("Wallet")), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "registerWallet",
    method: "POST",
    path: "/v0/wallets",
    tag: "Wallets",
    summary: "Register a further wallet or a signer address",
    description: [
      "Proves control of `address` with an EIP-191 `personal_sign` signature (EOA and signer) or an ERC-1271 / ERC-6492 signature checked on chain (Safe) over exactly this text, lines joined by `\\n`:",
      "",
      "```",
      "Register wallet",
      "User: <user id>",
      "Address: <checksummed address>",
      "Chain ID: <chain_id>",
      "Type: <EOA|Safe>",
      "Role: <wallet|signer>",
      "Issued At: <issued_at as ISO 8601 with milliseconds, e.g. 2026-11-21T10:00:00.000Z>",
      "```",
      "",
      "`issued_at` must be within 10 minutes of the server's clock. `role: signer` adds the address to the signer set of the user's primary Safe: it is then readable by id but never listed, and cannot be deleted.",
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    body: RegisterWalletInput,
    operation: `mutation RegisterWallet($input: RegisterWalletInput!) { wallet: register_wallet(input: $input) { ${WALLET_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.wallet,
    status: 201,
    links: (body, { base_url }) => walletLinks(base_url, body),
    responses: { 201: { description: "The registered wallet", schema: Type.Ref("Wallet") } },
    errors: ["USR-403-001", "USR-404-001", "WAL-400-001", "WAL-400-002", "WAL-409-003", "CHN-502-001"],
  }),
  defineRoute({
    operationId: "getWallet",
    method: "GET",
    path: "/v0/wallets/{wallet_id}",
    tag: "Wallets",
    summary: "One wallet of the user (signer addresses included)",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { wallet_id: 12 },
    params: WalletId,
    operation: `query GetWallet($id: Int!) { wallet(id: $id) { ${WALLET_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.wallet_id }),
    result: (data) => data.wallet,
    links: (body, { base_url }) => walletLinks(base_url, body),
    responses: { 200: { description: "The wallet", schema: Type.Ref("Wallet") } },
    errors: ["USR-404-001", "WAL-404-001"],
  }),
  defineRoute({
    operationId: "proveWalletAddress",
    method: "POST",
    path: "/v0/wallets/{wallet_id}/address-proof",
    tag: "Wallets",
    summary: "Prove that the wallet's address is the user's",
    description: [
      "A user registers with the documented body alone (spec 4.3), so a primary EOA may be recorded unproven (`address_verified: false`). Until it is proven, what a squatter of someone else's address could turn against its owner is refused with 403 `WAL-403-001` (funding a card or an off-ramp from the wallet, adopting a Safe it owns in byo onboarding; PINT mandates for it on the identity service: `PINT-403-001`). This proves it, once: with a JWT that vouches for the address (then no body field is needed), or with the address's EIP-191 `personal_sign` signature (a Safe: ERC-1271 / ERC-6492 on chain) over exactly this text, lines joined by `\\n`:",
      "",
      "```",
      "Prove wallet address",
      "User: <user id>",
      "Wallet ID: <wallet_id>",
      "Address: <the wallet's checksummed address>",
      "Chain ID: <the wallet's chain_id>",
      "Issued At: <issued_at as ISO 8601 with milliseconds, e.g. 2026-11-21T10:00:00.000Z>",
      "```",
      "",
      "`issued_at` must be within 10 minutes of the server's clock; a signature that does not check out is 400 `WAL-400-001`. An EOA's proof holds for the user's wallets of that address on every chain, and proving the primary EOA also proves the Safes the platform deployed for it. A proven wallet answers as it is.",
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    params: WalletId,
    body: WalletAddressProofInput,
    operation: `mutation ProveWalletAddress($id: Int!, $input: WalletAddressProofInput!) { wallet: prove_wallet_address(id: $id, input: $input) { ${WALLET_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.wallet_id, input: body }),
    result: (data) => data.wallet,
    links: (body, { base_url }) => walletLinks(base_url, body),
    responses: { 200: { description: "The wallet, its address proven", schema: Type.Ref("Wallet") } },
    errors: ["USR-403-001", "USR-404-001", "WAL-400-001", "WAL-400-002", "WAL-404-001", "CHN-502-001"],
  }),
  defineRoute({
    operationId: "updateWallet",
    method: "PATCH",
    path: "/v0/wallets/{wallet_id}",
    tag: "Wallets",
    summary: "Rename, designate primary, or retry a failed Safe creation",
    description:
      "`is_primary: true` makes the wallet the primary of its type and keeps the primary EOA and primary Safe on one chain (`primary_chain_id`): a primary EOA on a chain without a Safe starts a Safe deployment and answers **202** (`_links.safe` points at the new Safe). `retry_safe_creation: true` on a `failed` Safe moves it back to `processing` (202). At most one deployment runs per user and chain: while one is under way there, a change that needs a deployment on that chain reuses it (`_links.safe`). Every deployment started counts against the environment's `safe_deployments_per_day` (`ENVIRONMENT_LIMITS`); over it: 429 `WAL-429-001` with `Retry-After`, nothing changed.",
    security: ["PlatformJwt", "PlatformPat"],
    params: WalletId,
    body: UpdateWalletInput,
    operation: `mutation UpdateWallet($id: Int!, $input: UpdateWalletInput!) { update: update_wallet(id: $id, input: $input) { wallet { ${WALLET_FIELDS} } triggered_safe { id } } }`,
    variables: ({ params, body }) => ({ id: params.wallet_id, input: body }),
    result: (data) => ({ ...data.update.wallet, ...(data.update.triggered_safe && { triggered_safe_wallet_id: data.update.triggered_safe.id }) }),
    status: (data) => (data.update.triggered_safe ? 202 : 200),
    links: (body, { base_url }) => ({
      ...walletLinks(base_url, body),
      ...(body.triggered_safe_wallet_id && { safe: link(href(base_url, "/v0/wallets/{wallet_id}", { wallet_id: body.triggered_safe_wallet_id })) }),
    }),
    responses: {
      200: { description: "The updated wallet", schema: Type.Ref("Wallet") },
      202: {
        description: "Updated; a Safe deployment started (follow `_links.safe`)",
        schema: Type.Composite([Wallet, Type.Object({ triggered_safe_wallet_id: Type.Integer({ description: "the Safe being deployed" }) })]),
      },
    },
    errors: ["USR-403-001", "USR-404-001", "WAL-400-002", "WAL-404-001", "WAL-409-004", "WAL-429-001"],
  }),
  defineRoute({
    operationId: "deleteWallet",
    method: "DELETE",
    path: "/v0/wallets/{wallet_id}",
    tag: "Wallets",
    summary: "Soft-delete a wallet",
    description: "Refused with 409 while the wallet carries a signer role (`WAL-409-001`) and for a primary wallet (`WAL-409-002`).",
    security: ["PlatformJwt", "PlatformPat"],
    params: WalletId,
    operation: `mutation DeleteWallet($id: Int!) { wallet: delete_wallet(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.wallet_id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Deleted" } },
    errors: ["USR-403-001", "USR-404-001", "WAL-404-001", "WAL-409-001", "WAL-409-002"],
  }),
];
