import { Field, ObjectType } from "type-graphql";
import { AccountStatusEnum } from "./enums.ts";

@ObjectType({ description: "One account status change (status_history)." })
export class StatusChange {
  @Field(() => AccountStatusEnum, { nullable: true, description: "Status before; null for registration." })
  from!: string | null;

  @Field(() => AccountStatusEnum)
  to!: string;

  @Field(() => String, { description: "What caused it: registration, kyc_started, kyc_resubmitted, or a provider event." })
  cause!: string;

  @Field(() => String, { nullable: true, description: "The provider event id behind the change, if any." })
  event_id!: string | null;

  @Field(() => Boolean, { description: "True when the state table did not allow the event: recorded, not applied." })
  ignored!: boolean;

  @Field(() => Date)
  changed_at!: Date;
}
