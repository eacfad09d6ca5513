import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { MAX_ATTEMPTS_SHOWN, type WebhookDeliveryStatus } from "../../../lib/contracts/events.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { WebhookDeliveryStatusEnum } from "./enums.ts";

@ObjectType({ description: "What an outgoing event is about." })
export class OrganisationEventResource {
  @Field(() => String, { description: "the resource's kind: `user`, `wallet`, `pregenerated_wallet`, …" })
  type!: string;

  @Field(() => ID, { description: "its id, as the API renders it" })
  id!: string;
}

@ObjectType({ description: "An outgoing (developer-facing) event of an organisation environment (spec 2.5 `_links.events`; issue 29): the Standard Webhooks envelope." })
export class OrganisationEvent {
  @Field(() => ID, { description: "`evt_…`, stable: the `webhook-id` of its deliveries" })
  id!: string;

  @Field(() => String, { description: "what happened, `<resource>.<change>` (the catalogue of the Events tag)" })
  type!: string;

  @Field(() => String, { description: "the interface version `data` was rendered with (`info.version` of /openapi.json)" })
  api_version!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => String, { description: "the environment of the user it concerns, `<org-id>:<env-id>`" })
  environment_id!: string;

  @Field(() => OrganisationEventResource)
  resource!: OrganisationEventResource;

  @Field(() => JSONObjectScalar, { description: "the resource the event is about, as the API version of `api_version` renders it (the type's payload schema)" })
  data!: Record<string, unknown>;
}

@ObjectType({ description: "One POST of a delivery and what came of it." })
export class WebhookDeliveryAttempt {
  @Field(() => Date, { description: "when it was sent" })
  attempted_at!: Date;

  @Field(() => Int, { nullable: true, description: "the receiver's HTTP status; null when no answer came (timeout, refused address, network error)" })
  status_code!: number | null;

  @Field(() => Int, { description: "from sending to the end of the answer (or the error), in milliseconds" })
  latency_ms!: number;

  @Field(() => String, { nullable: true, description: "the answer's first KiB" })
  response_excerpt!: string | null;

  @Field(() => String, { nullable: true, description: "why no answer came (a timeout, a refused address, a network error); null when one came" })
  error!: string | null;
}

@ObjectType({ description: "The event owed to one webhook endpoint: one per event and endpoint, made when the event is stored or redelivered." })
export class WebhookDelivery {
  @Field(() => ID, { description: "whd_<id>" })
  id!: string;

  @Field(() => ID, { description: "the webhook endpoint (whe_<id>)" })
  endpoint_id!: string;

  @Field(() => WebhookDeliveryStatusEnum)
  status!: WebhookDeliveryStatus;

  @Field(() => Int, { description: "attempts made, every round counted (a redelivery starts a new round)" })
  attempt_count!: number;

  @Field(() => Date, { nullable: true, description: "when it is attempted next; null unless pending" })
  next_attempt_at!: Date | null;

  @Field(() => Date, { nullable: true, description: "when a 2xx answered; null unless delivered" })
  delivered_at!: Date | null;

  @Field(() => [WebhookDeliveryAttempt], { description: `its attempts, newest first (the latest ${MAX_ATTEMPTS_SHOWN})` })
  attempts!: WebhookDeliveryAttempt[];
}

@ObjectType({ description: "An outgoing event with what became of it: its deliveries and their attempts." })
export class OrganisationEventDetail extends OrganisationEvent {
  @Field(() => [WebhookDelivery], { description: "one per endpoint it was owed to, oldest first" })
  deliveries!: WebhookDelivery[];
}

@InputType()
export class RedeliverEventInput {
  @Field(() => ID, { nullable: true, description: "only to this endpoint (whe_<id>) of the event's environment; absent: every enabled endpoint subscribed to its type" })
  endpoint_id?: string | null;
}

@InputType()
export class RedeliverFailedEventsInput {
  @Field(() => Date, { description: "events created at or after this instant" })
  since!: Date;

  @Field(() => ID, { nullable: true, description: "only deliveries to this endpoint (whe_<id>)" })
  endpoint_id?: string | null;
}

@ObjectType({ description: "What a redelivery of failed deliveries queued." })
export class FailedEventsRedelivery {
  @Field(() => Int, { description: "deliveries queued again" })
  queued!: number;
}
