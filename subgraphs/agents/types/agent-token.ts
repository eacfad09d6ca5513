import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";

@ObjectType({ description: "An agent token of the user (x-platform-token); the secret itself is shown only at creation." })
export class AgentToken {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "The token's first characters, to tell tokens apart." })
  token_prefix!: string;

  @Field(() => [String], { description: "read:transactions, read:balances, write:transfers, write:strategies (spec 2.10)" })
  scopes!: string[];

  @Field(() => [Int], { description: "The wallets it may read; empty: every wallet of the user." })
  wallet_ids!: number[];

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => Date, { nullable: true })
  last_used_at!: Date | null;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType()
export class CreatedAgentToken extends AgentToken {
  @Field(() => String, { description: "The secret, shown this once; only its hash is stored." })
  token!: string;
}

@ObjectType({ description: "One request made with an agent token." })
export class AgentTokenUse {
  @Field(() => String, {
    description:
      "The GraphQL operation the gateway ran, by its name (a REST request's: its route's operation, such as ListTransactions for GET /v0/transactions), else by its type and root fields (`query { transactions }`); at most 200 characters.",
  })
  operation!: string;

  @Field(() => String, { description: "`ok`, or the error code the request was answered with." })
  outcome!: string;

  @Field(() => Date)
  at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "The agent token making the request: what it may do. MCP lists a token's tools from it." })
export class CurrentAgentToken {
  @Field(() => ID)
  id!: string;

  @Field(() => [String], { description: "read:transactions, read:balances, write:transfers, write:strategies (spec 2.10)" })
  scopes!: string[];

  @Field(() => [Int], { description: "The wallets it may read; empty: every wallet of the user." })
  wallet_ids!: number[];
}
