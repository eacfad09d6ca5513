import { Type } from "@sinclair/typebox";
import { AppError } from "../../lib/errors/app-error.ts";
import { BANKING_EVENT_TYPES } from "../../lib/vocabulary/bank-accounts.ts";
import { BANKING_SIGNATURE_HEADER, signBankingPayload, verifyBankingSignature } from "../../lib/webhooks/banking-signature.ts";
import { defineWebhook } from "./webhooks.ts";

/** The one detail of every refused delivery: it never echoes the header, the timestamp or the body. */
export const BANKING_WEBHOOK_SIGNATURE_DETAIL = `The banking webhook's ${BANKING_SIGNATURE_HEADER} signature is missing or invalid, or its timestamp is not recent.`;

export interface BankingWebhookOptions {
  /** BANKING_WEBHOOK_SECRET, split at commas */
  secrets: readonly string[];
  /** sandbox mode: also accept deliveries the sandbox provider signed with its own secret */
  sandbox: boolean;
  /** sandboxWebhookSecret(INTERNAL_SECRET, "banking"); used only in sandbox mode */
  sandboxSecret: string;
  /** BANKING_WEBHOOK_TOLERANCE_SECONDS */
  toleranceSeconds: number;
}

const Envelope = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255, description: "The event's unique id: each id is applied once, however often it is delivered." }),
    type: Type.String({ minLength: 1, maxLength: 255, description: `${BANKING_EVENT_TYPES.join(", ")}; any other type is accepted as a no-op` }),
    created_at: Type.String({ format: "date-time", description: "When the provider created the event (ISO 8601); informational: freshness is the signed timestamp's" }),
    data: Type.Object(
      {
        item_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "The login (link.*, transactions.available)." })),
        ramp_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "The provider's ramp id (ramp.*)." })),
        reason: Type.Optional(Type.String({ maxLength: 255, description: "Why (link.failed, ramp.failed)." })),
      },
      { description: "What the event is about; other fields pass unread." },
    ),
  },
  { description: "A banking-provider event." },
);

// A worked example, computed once so the document shows a signature that really verifies.
const EXAMPLE_SECRET = "bank_whsec_example";
const EXAMPLE_TIMESTAMP = 1795435200;
const EXAMPLE_BODY = `{"id":"evt_8d1f3c2a","type":"ramp.completed","created_at":"2026-11-23T12:00:00.000Z","data":{"ramp_id":"ramp-sandbox-4f2a9c1e"}}`;

const DESCRIPTION = (toleranceSeconds: number) =>
  [
    "Called by the banking provider (spec 4.5, 5.3.5, 6) about logins, bank transactions and ramps. The signature is checked on the raw bytes before anything is parsed.",
    `**Signature**: one header \`${BANKING_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>\`. Each \`v1\` is the lowercase hex HMAC-SHA256, keyed with a secret of \`BANKING_WEBHOOK_SECRET\` (UTF-8), of the string \`{t}.{raw body}\`. During a rotation configure both secrets (comma-separated) and let the provider send one \`v1\` per secret: any \`v1\` matching any secret passes, compared in constant time. \`t\` further than \`BANKING_WEBHOOK_TOLERANCE_SECONDS\` (${toleranceSeconds} s here) from the server clock, either way, is refused before any HMAC is computed; \`t\` is signed, so a captured delivery cannot be replayed later, and inside the window the event id makes a replay a no-op. In sandbox mode only, deliveries the sandbox provider signed with its own secret (derived from \`INTERNAL_SECRET\`, never \`BANKING_WEBHOOK_SECRET\`) are accepted too.`,
    `**Worked example**: secret \`${EXAMPLE_SECRET}\`, \`t\` = ${EXAMPLE_TIMESTAMP}, body \`${EXAMPLE_BODY}\` (exactly these bytes) → \`${BANKING_SIGNATURE_HEADER}: ${signBankingPayload(EXAMPLE_BODY, [EXAMPLE_SECRET], EXAMPLE_TIMESTAMP)}\`. In a shell: \`printf '%s' "${EXAMPLE_TIMESTAMP}.$BODY" | openssl dgst -sha256 -hmac "$SECRET"\`.`,
    "**Events** (`data` fields in brackets): `link.completed` [item_id]: the login works again (a connection in `reauth_required` or `error` becomes `active`); `link.failed` [item_id, reason]: the provider lost the login (`error`); `link.reauth_required` [item_id]: the bank wants the user to log in again (`reauth_required`); `transactions.available` [item_id]: the platform syncs the login's transactions by cursor (new, modified and removed become ledger rows of the bank types, never twice); `ramp.processing` [ramp_id]: the provider is moving the money (the ramp's `on_ramp`/`off_ramp` transaction moves from `pending` to `processing`); `ramp.completed` / `ramp.failed` [ramp_id, reason]: it moves on to `completed`/`failed` (spec 3.4, through `processing` if that report never came; a failed off-ramp gives the wallet its money back).",
    "**Rules**: each event `id` is applied once, also when delivered concurrently (it is recorded in the same database transaction as its effect). A move the state tables do not allow (a ramp reported twice, an unlinked login reported back to life) is recorded as ignored and never applied. Unknown logins, unknown ramps and other event types: 200 no-ops. A failure while applying (the database or the provider's sync unreachable) answers 5xx with nothing applied, so the provider retries. Unsigned, wrongly signed or stale: 401 `WHK-401-001` with one fixed detail, nothing processed. A verified body that is not the envelope: 422.",
  ].join("\n\n");

/** POST /v0/webhooks/banking-provider/events (spec 4.5, 5.3.5, 6). */
export function bankingProviderWebhook(options: BankingWebhookOptions) {
  const { secrets, sandbox, sandboxSecret, toleranceSeconds } = options;
  return defineWebhook({
    operationId: "receiveBankingProviderEvent",
    path: "/v0/webhooks/banking-provider/events",
    tag: "Webhooks",
    summary: "Banking provider events: bank linking and on/off-ramps (spec 4.5)",
    description: DESCRIPTION(toleranceSeconds),
    envelope: Envelope,
    requestHeaders: [{ name: BANKING_SIGNATURE_HEADER, required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`, one `v1` per secret during rotation.' }],
    verify(raw, headers, now) {
      const header = headers[BANKING_SIGNATURE_HEADER];
      if (verifyBankingSignature(raw, header, secrets, now, toleranceSeconds)) return;
      if (sandbox && verifyBankingSignature(raw, header, [sandboxSecret], now, toleranceSeconds)) return;
      throw new AppError("WHK-401-001", { detail: BANKING_WEBHOOK_SIGNATURE_DETAIL });
    },
    operation: `mutation BankingProviderEvent($input: BankingProviderEventInput!) { result: apply_banking_provider_event(input: $input) { outcome detail } }`,
    variables: (envelope) => ({
      input: { event_id: envelope.id, type: envelope.type, item_id: envelope.data.item_id ?? null, ramp_id: envelope.data.ramp_id ?? null, reason: envelope.data.reason ?? null },
    }),
    responses: { 200: { description: "Received (applied, ignored, a duplicate or a no-op)", schema: Type.Object({ received: Type.Literal(true) }) } },
    errors: ["WHK-401-001", "BNK-502-001", "BNK-503-001"],
  });
}
