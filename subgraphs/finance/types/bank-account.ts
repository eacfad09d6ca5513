import { Directive, Field, ID, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";

@Directive(AGENT_TAG)
@ObjectType({ description: "A linked bank account (spec 2.10: institution_id, account_type, currency); its number only as the last four digits." })
export class BankAccount {
  @Field(() => ID, { description: "bnk_<id>" })
  id!: string;

  @Field(() => String)
  institution_id!: string;

  @Field(() => String)
  institution_name!: string;

  @Field(() => String, { description: "The bank's name for the account." })
  name!: string;

  @Field(() => String, { description: "checking, savings or credit" })
  account_type!: string;

  @Field(() => String, { description: "ISO 4217 code, e.g. USD" })
  currency!: string;

  @Field(() => String, { description: "The last four digits of the account number." })
  mask!: string;

  @Field(() => String, { nullable: true, description: "The bank's balance as last reported, a decimal string in `currency`." })
  balance!: string | null;

  @Field(() => String, { description: "active, reauth_required (log in at the bank again), error (the provider lost the login) or revoked (unlinked)" })
  connection_status!: string;

  @Field(() => Date, { nullable: true, description: "When its transactions last synced; null until the first sync." })
  synced_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType({ description: "A short-lived token for the banking provider's linking widget." })
export class BankLinkToken {
  @Field(() => String)
  link_token!: string;

  @Field(() => Date)
  expires_at!: Date;
}

@ObjectType({ description: "Sandbox: what the linking widget hands back on success." })
export class BankPublicToken {
  @Field(() => String)
  public_token!: string;

  @Field(() => Date)
  expires_at!: Date;
}
