import { Type } from "@sinclair/typebox";
import { AppError } from "../../lib/errors/app-error.ts";
import { defineWebhook, type WebhookHeaders } from "./webhooks.ts";
import { WALLET_CLAIM_TOLERANCE_SECONDS, walletClaimVerifier } from "./wallet-claim-signature.ts";

const WALLET_CLAIMED = "wallet.pregen_claimed";
const DATA_FIELDS = ["walletId", "walletAddress", "walletType", "claimedAt"] as const;

/** Spec 2.8. The data fields are required when `type` is wallet.pregen_claimed (checked in `check`). */
const Envelope = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: "Unique event id: the de-duplication key; must equal the webhook-id header." }),
  type: Type.String({ minLength: 1, maxLength: 255, description: "Only wallet.pregen_claimed is acted on; other types are accepted as no-ops." }),
  data: Type.Object(
    {
      walletId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "The provider's wallet id" })),
      walletAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      walletType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      claimedAt: Type.Optional(Type.String({ format: "date-time", description: "ISO 8601" })),
    },
    { description: "For wallet.pregen_claimed every field is required." },
  ),
  createdAt: Type.String({ format: "date-time", description: "ISO 8601" }),
});

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? undefined : value;
}

const DESCRIPTION = `The embedded-wallet provider reports that a user claimed a wallet pregenerated for them (registered with \`POST /v0/wallets/pregenerated\`). The claim is matched to the pregenerated wallet by \`data.walletId\` (the provider wallet id), else by \`data.walletAddress\` (0x addresses case-insensitively), and recorded against its user; nothing else happens.

**Signature** (not Standard Webhooks: the id is not part of the signed string):

1. \`webhook-timestamp\`: Unix epoch seconds of signing. More than ${WALLET_CLAIM_TOLERANCE_SECONDS} seconds from the server's clock, in either direction, is refused before any signature is computed (exactly ${WALLET_CLAIM_TOLERANCE_SECONDS} s passes).
2. \`webhook-signature\`: one or more space-separated values \`v1,<base64>\`, each \`base64(HMAC-SHA256(key, "{webhook-timestamp}.{raw body}"))\` where \`key\` is the base64-decoded part of a \`whsec_<base64>\` secret from \`WALLET_CLAIM_WEBHOOK_SECRETS\`. During rotation send one value per secret: the delivery is accepted if any value verifies with any configured secret (compared in constant time). Sign the exact bytes sent.
3. \`webhook-id\`: the envelope \`id\`. It is not signed, so a missing or different value is treated as an unauthentic delivery (401), as a Standard Webhooks sender would have signed it.

**Responses**: 401 \`WHK-401-001\` (always the same detail, never echoing what was sent) for a missing, stale or malformed timestamp, a missing or non-matching signature, no configured secret, or a missing or mismatching \`webhook-id\`. 422 when the verified body is not the envelope (for \`wallet.pregen_claimed\`, \`data.walletId\`, \`walletAddress\`, \`walletType\` and \`claimedAt\` are required; \`claimedAt\` and \`createdAt\` are ISO 8601). 200 \`{"received": true}\` when the claim is recorded and as a no-op for a replayed event id, another event type, an unknown wallet, or a wallet another event already claimed. 5xx when the claim could not be recorded (e.g. the database is down): nothing is recorded and the provider should retry.`;

/** POST /v0/webhooks/embedded-wallet/wallet-claimed (spec 2.8, 4.5, 5.3, 6). */
export function walletClaimedWebhook(secrets: readonly string[]) {
  return defineWebhook({
    operationId: "walletClaimedWebhook",
    path: "/v0/webhooks/embedded-wallet/wallet-claimed",
    tag: "Webhooks",
    summary: "Embedded-wallet provider: a pregenerated wallet was claimed",
    description: DESCRIPTION,
    envelope: Envelope,
    verify: walletClaimVerifier(secrets),
    check(envelope, headers) {
      if (headerValue(headers, "webhook-id") !== envelope.id) throw new AppError("WHK-401-001");
      if (envelope.type !== WALLET_CLAIMED) return;
      const missing = DATA_FIELDS.filter((field) => envelope.data[field] === undefined);
      if (missing.length)
        throw new AppError("GEN-422-001", {
          validation: missing.map((field) => ({ type: "missing", loc: ["body", "data", field], msg: "Field required", input: envelope.data, ctx: {} })),
        });
    },
    operation: `mutation RecordWalletClaim($input: WalletClaimInput!) { record_wallet_claim(input: $input) { outcome } }`,
    variables: (envelope) => ({
      input: {
        event_id: envelope.id,
        type: envelope.type,
        created_at: envelope.createdAt,
        wallet_id: envelope.data.walletId ?? null,
        wallet_address: envelope.data.walletAddress ?? null,
        wallet_type: envelope.data.walletType ?? null,
        claimed_at: envelope.data.claimedAt ?? null,
      },
    }),
    responses: { 200: { description: "Received (recorded, or a no-op)", schema: Type.Object({ received: Type.Boolean() }) } },
    errors: ["WHK-401-001"],
  });
}
