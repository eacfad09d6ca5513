import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { newWebhookSecret } from "../../../lib/webhooks/standard-webhooks.ts";
import type { WebhookEndpoint as WebhookEndpointRow } from "../generated/prisma/client.ts";

/**
 * The secrets a delivery at `now` is signed with, current first: the previous one too while its
 * rotation overlap lasts, so receivers verify with either (`webhook-signature: v1,<new> v1,<old>`).
 */
export function signingSecrets(cipher: CardDataCipher, endpoint: Pick<WebhookEndpointRow, "secret" | "secret_previous" | "previous_expires_at">, now: Date = new Date()): string[] {
  const current = cipher.open(endpoint.secret);
  const overlapping = endpoint.secret_previous !== null && endpoint.previous_expires_at !== null && endpoint.previous_expires_at.getTime() > now.getTime();
  return overlapping ? [current, cipher.open(endpoint.secret_previous!)] : [current];
}

/**
 * The columns a rotation at `now` writes: a new sealed secret, the current one kept as the previous
 * until `now + overlapSeconds` (none with 0). A rotation during an overlap drops the older previous
 * secret: at most two sign at once.
 */
export function rotatedSecretColumns(cipher: CardDataCipher, endpoint: Pick<WebhookEndpointRow, "secret">, overlapSeconds: number, now: Date) {
  const secret = newWebhookSecret();
  const keepPrevious = overlapSeconds > 0;
  return {
    secret,
    columns: {
      secret: cipher.seal(secret),
      secret_previous: keepPrevious ? endpoint.secret : null,
      previous_expires_at: keepPrevious ? new Date(now.getTime() + overlapSeconds * 1000) : null,
    },
  };
}
