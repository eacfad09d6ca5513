import { Field, ID, ObjectType } from "type-graphql";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

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
