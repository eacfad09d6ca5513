import { Field, ID, ObjectType } from "type-graphql";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

@ObjectType({ description: "An outgoing (developer-facing) event of an organisation (spec 2.5 `_links.events`, spec 6). None are emitted yet." })
export class OrganisationEvent {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "what happened, `<resource>.<change>`" })
  type!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => JSONObjectScalar, { description: "the resource the event is about, as the API version of `api_version` renders it" })
  data!: Record<string, unknown>;

  @Field(() => String, { description: "the interface version `data` was rendered with (`info.version` of /openapi.json)" })
  api_version!: string;
}
