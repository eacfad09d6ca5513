import type { RestResource } from "../route-kit/resource-overlay.ts";

/** An outgoing event with its deliveries and their attempts (GET and POST …/events/{event_id}…), written inline; the redelivery bodies from their inputs. */
export const resource = {
  type: "OrganisationEventDetail",
  component: false,
  inputs: { RedeliverEventInput: "OrganisationEventDetail", RedeliverFailedEventsInput: "OrganisationEventDetail" },
  types: {
    WebhookDelivery: { fields: { id: { examples: ["whd_01jd2x3y4z5a6b7c8d9e0f1g2h"] }, endpoint_id: { examples: ["whe_01jd2x3y4z5a6b7c8d9e0f1g2h"] } } },
    WebhookDeliveryAttempt: { fields: { response_excerpt: { maxLength: 1024 } } },
    RedeliverEventInput: { fields: { endpoint_id: { minLength: 1, acceptsNull: false } } },
    RedeliverFailedEventsInput: { fields: { since: { minimum: 0, examples: [1795000000000] }, endpoint_id: { minLength: 1, acceptsNull: false } } },
  },
} satisfies RestResource;
