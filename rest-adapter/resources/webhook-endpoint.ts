import { Type } from "@sinclair/typebox";
import { ALL_EVENT_TYPES, EVENT_TYPES, MAX_SECRET_OVERLAP_SECONDS, MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from "../../lib/contracts/events.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { literalUnion } from "../route-kit/schemas.ts";

/** What an endpoint subscribes to in a request: catalogue names (repeats count once), or `*` alone. */
export const EventTypeNames = Type.Array(literalUnion([...EVENT_TYPES, ALL_EVENT_TYPES]), {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  description: "the event types delivered: names of the event catalogue, or `[\"*\"]` alone for every type, including those added later",
  examples: [["user.kyc_status_changed", "card.authorization_approved"]],
});

const URL_INPUT = {
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description:
    "`https` to a public host: `http`, credentials in the URL, and private, loopback, link-local and other internal address literals are refused (422), and every address the name resolves to is checked again at delivery. With `WEBHOOK_ALLOW_LOOPBACK` (sandbox mode) loopback such as `http://127.0.0.1:3000/hook` is admitted too",
  examples: ["https://hooks.example.com/platform"],
};
const DESCRIPTION_INPUT = { maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH, examples: ["Production receiver"] };

/** A webhook endpoint of an organisation environment in REST (issue 29), written inline by its routes; its bodies from its three inputs. */
export const resource = {
  type: "WebhookEndpoint",
  component: false,
  inputs: { CreateWebhookEndpointInput: "WebhookEndpoint", UpdateWebhookEndpointInput: "WebhookEndpoint", RotateWebhookSecretInput: "WebhookEndpoint" },
  types: {
    WebhookEndpoint: {
      fields: {
        id: { examples: ["whe_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        url: { examples: ["https://hooks.example.com/platform"] },
      },
    },
    CreateWebhookEndpointInput: {
      fields: { url: URL_INPUT, event_types: { schema: EventTypeNames }, description: DESCRIPTION_INPUT, enabled: { acceptsNull: false } },
    },
    UpdateWebhookEndpointInput: {
      fields: {
        url: { ...URL_INPUT, acceptsNull: false },
        event_types: { schema: EventTypeNames, acceptsNull: false },
        description: DESCRIPTION_INPUT,
        enabled: { acceptsNull: false },
      },
    },
    RotateWebhookSecretInput: {
      fields: { overlap_seconds: { minimum: 0, maximum: MAX_SECRET_OVERLAP_SECONDS, acceptsNull: false, examples: [3600] } },
    },
  },
} satisfies RestResource;
