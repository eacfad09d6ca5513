import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { CARD_REVEAL_METHODS } from "../../../lib/vocabulary/cards.ts";
import { Pagination } from "./transaction-page.ts";

export const CardRevealMethodEnum = graphqlEnum(CARD_REVEAL_METHODS, "CardRevealMethod", "How a reveal of card details was proven: eip191, the primary EOA's signature of a challenge.");

@ObjectType({ description: "A single-use challenge to reveal a card's details: sign `message` with `address` (EIP-191 personal_sign) before `expires_at`." })
export class CardDetailsChallenge {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  card_id!: string;

  @Field(() => String, { description: "The user's primary EOA, checksummed: the one signer accepted." })
  address!: string;

  @Field(() => String, { description: "The exact text to sign." })
  message!: string;

  @Field(() => Date)
  expires_at!: Date;
}

@ObjectType({ description: "A card's number, CVV and expiry: answered once per challenge, by reveal_card_details only." })
export class CardDetails {
  @Field(() => String)
  number!: string;

  @Field(() => String)
  cvv!: string;

  @Field(() => Int)
  expiry_month!: number;

  @Field(() => Int)
  expiry_year!: number;
}

@InputType({ description: "A signed challenge, to reveal a card's details with." })
export class RevealCardDetailsInput {
  @Field(() => ID, { description: "the id of a challenge from create_card_details_challenge" })
  challenge_id!: string;

  @Field(() => String, { description: "the primary EOA's EIP-191 signature of the challenge's message" })
  signature!: string;
}

@ObjectType({ description: "One reveal of a card's details in its audit trail." })
export class CardReveal {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  card_id!: string;

  @Field(() => ID)
  challenge_id!: string;

  @Field(() => CardRevealMethodEnum)
  method!: string;

  @Field(() => String, { nullable: true, description: "The client's address as the platform saw it (TRUST_PROXY)." })
  ip!: string | null;

  @Field(() => String, { nullable: true })
  user_agent!: string | null;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType()
export class CardRevealPage {
  @Field(() => [CardReveal])
  items!: CardReveal[];

  @Field(() => Pagination)
  pagination!: Pagination;
}
