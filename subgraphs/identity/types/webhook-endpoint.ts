import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import type { WebhookDisabledReason } from "../../../lib/contracts/events.ts";
import { WebhookDisabledReasonEnum } from "./enums.ts";

const EVENT_TYPES_DESCRIPTION = 'The event types delivered: catalogue names such as "user.created", or ["*"] for every type, including those added later.';

@ObjectType({ description: "Where an organisation environment's outgoing events are delivered (Standard Webhooks); the signing secret is shown only when created and rotated." })
export class WebhookEndpoint {
  @Field(() => ID, { description: "whe_<id>" })
  id!: string;

  @Field(() => String, { description: "https on a public host; each delivery POSTs the event there." })
  url!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => [String], { description: EVENT_TYPES_DESCRIPTION })
  event_types!: string[];

  @Field(() => Boolean, { description: "false: nothing is delivered to it." })
  enabled!: boolean;

  @Field(() => WebhookDisabledReasonEnum, { nullable: true, description: "Why it is disabled; null while enabled." })
  disabled_reason!: WebhookDisabledReason | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType({ description: "A webhook endpoint with its signing secret, answered this once." })
export class WebhookEndpointWithSecret extends WebhookEndpoint {
  @Field(() => String, { description: "whsec_<base64 of 32 bytes>: verifies the webhook-signature header; shown only here, stored sealed." })
  secret!: string;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field(() => String, { description: "https on a public host (loopback too with WEBHOOK_ALLOW_LOOPBACK)." })
  url!: string;

  @Field(() => [String], { description: EVENT_TYPES_DESCRIPTION })
  event_types!: string[];

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Default true." })
  enabled?: boolean | null;
}

@InputType({ description: "The fields to change; absent: unchanged." })
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => [String], { nullable: true, description: EVENT_TYPES_DESCRIPTION })
  event_types?: string[] | null;

  @Field(() => String, { nullable: true, description: "null removes it." })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true enables it again and clears disabled_reason; false disables it (disabled_reason user)." })
  enabled?: boolean | null;
}

@InputType()
export class RotateWebhookSecretInput {
  @Field(() => Int, { nullable: true, description: "How long the previous secret still signs, in seconds: 0 to 604800 (7 days), default 86400." })
  overlap_seconds?: number | null;
}
