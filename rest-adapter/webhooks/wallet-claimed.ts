import { type Static, Type } from "@sinclair/typebox";
import { AppError } from "../../lib/errors/app-error.ts";
import { defineWebhook } from "./webhooks.ts";
import { WALLET_CLAIM_TOLERANCE_SECONDS, walletClaimVerifier } from "./wallet-claim-signature.ts";

const WALLET_CLAIMED = "wallet.pregen_claimed";

/** Spec 2.8's `data`, every field required: only a wallet.pregen_claimed event carries it. */
const ClaimData = Type.Object({
  walletId: Type.String({ minLength: 1, maxLength: 255, description: "The provider's wallet id" }),
  walletAddress: Type.String({ minLength: 1, maxLength: 255 }),
  walletType: Type.String({ minLength: 1, maxLength: 64 }),
  claimedAt: Type.String({ format: "date-time", description: "ISO 8601" }),
});

/**
 * Spec 2.8. `data` is checked only when `type` is wallet.pregen_claimed (JSON Schema if/then, so
 * the document and the validation are one schema); other event types are no-ops whose `data`,
 * present or not, is never read (spec 4.5 rule 2).
 */
const Envelope = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255, description: "Unique event id: the de-duplication key; a webhook-id header, when sent, must equal it." }),
    type: Type.String({ minLength: 1, maxLength: 255, description: "Only wallet.pregen_claimed is acted on; other types are accepted as no-ops." }),
    data: Type.Optional(Type.Unknown({ description: "Required when type is wallet.pregen_claimed, with walletId, walletAddress, walletType and claimedAt (ISO 8601); for other types optional and not read." })),
    createdAt: Type.String({ format: "date-time", description: "ISO 8601" }),
  },
  { if: { properties: { type: { const: WALLET_CLAIMED } }, required: ["type"] }, then: { required: ["data"], properties: { data: ClaimData } } },
);

const DESCRIPTION = `The embedded-wallet provider reports that a user claimed a wallet pregenerated for them (registered with \`POST /v0/wallets/pregenerated\`). The claim is matched to the pregenerated wallet by \`data.walletAddress\` (0x addresses case-insensitively), whatever \`data.walletId\` says, among registrations that proved control of their address, and recorded against its user; nothing else happens.

**Signature** (not Standard Webhooks: the id is not part of the signed string):

1. \`webhook-timestamp\`: Unix epoch seconds of signing. More than ${WALLET_CLAIM_TOLERANCE_SECONDS} seconds from the server's clock, in either direction, is refused before any signature is computed (exactly ${WALLET_CLAIM_TOLERANCE_SECONDS} s passes).
2. \`webhook-signature\`: one or more space-separated values \`v1,<base64>\`, each \`base64(HMAC-SHA256(key, "{webhook-timestamp}.{raw body}"))\` where \`key\` is the base64-decoded part of a \`whsec_<base64>\` secret from \`WALLET_CLAIM_WEBHOOK_SECRETS\`. During rotation send one value per secret: the delivery is accepted if any value verifies with any configured secret (compared in constant time). Sign the exact bytes sent.
3. \`webhook-id\`: mirrors the envelope \`id\` and may be left out: the envelope \`id\` (signed, as part of the body) is the event id and the de-duplication key either way. It is not signed, so a value that differs from the envelope \`id\` is refused as unauthentic (401): the provider always sends the two equal.

**Responses**: 401 \`WHK-401-001\` (always the same detail, never echoing what was sent) for a missing, stale or malformed timestamp, a missing or non-matching signature, no configured secret, or a \`webhook-id\` that differs from the envelope \`id\`. 422 when the verified body is not the envelope: every event needs \`id\`, \`type\` and \`createdAt\` (ISO 8601); a \`wallet.pregen_claimed\` event also needs \`data.walletId\`, \`walletAddress\`, \`walletType\` and \`claimedAt\` (ISO 8601), while another type's \`data\` may be absent or any JSON and is not read. 200 \`{"received": true}\` when the claim is recorded and as a no-op for a replayed event id, another event type, an unknown wallet, or a wallet another event already claimed. 5xx when the claim could not be recorded (e.g. the database is down): nothing is recorded and the provider should retry.`;

/** POST /v0/webhooks/embedded-wallet/wallet-claimed (spec 2.8, 4.5, 5.3, 6). */
export function walletClaimedWebhook(secrets: readonly string[]) {
  return defineWebhook({
    operationId: "walletClaimedWebhook",
    path: "/v0/webhooks/embedded-wallet/wallet-claimed",
    tag: "Webhooks",
    summary: "Embedded-wallet provider: a pregenerated wallet was claimed",
    description: DESCRIPTION,
    requestHeaders: [
      { name: "webhook-id", required: false, description: "The envelope `id`; may be left out, a different value is 401 `WHK-401-001`." },
      { name: "webhook-timestamp", required: true, description: `Unix epoch seconds of signing, within ${WALLET_CLAIM_TOLERANCE_SECONDS} s of the server's clock.`, schema: { type: "string", pattern: "^[0-9]{1,12}$" } },
      { name: "webhook-signature", required: true, description: 'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-timestamp}.{raw body}">` values, one per secret during rotation.' },
    ],
    envelope: Envelope,
    verify: walletClaimVerifier(secrets),
    check(envelope, headers) {
      // the envelope id is signed and is the de-duplication key; the unsigned header may be left
      // out, but a sender whose header and body disagree is not the provider (spec 5.3.2)
      const id = headers["webhook-id"];
      if (id !== undefined && id !== envelope.id) throw new AppError("WHK-401-001");
    },
    operation: `mutation RecordWalletClaim($input: WalletClaimInput!) { record_wallet_claim(input: $input) { outcome } }`,
    variables(envelope) {
      // the schema's if/then made data a ClaimData for a claim; another type's data is not passed on
      const data = envelope.type === WALLET_CLAIMED ? (envelope.data as Static<typeof ClaimData>) : undefined;
      return {
        input: {
          event_id: envelope.id,
          type: envelope.type,
          created_at: envelope.createdAt,
          wallet_id: data?.walletId ?? null,
          wallet_address: data?.walletAddress ?? null,
          wallet_type: data?.walletType ?? null,
          claimed_at: data?.claimedAt ?? null,
        },
      };
    },
    responses: { 200: { description: "Received (recorded, or a no-op)", schema: Type.Object({ received: Type.Boolean() }) } },
    errors: ["WHK-401-001"],
  });
}
