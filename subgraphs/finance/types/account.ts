import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { ACCOUNT_SOURCES } from "../../../lib/vocabulary/assets.ts";
import { Asset } from "./asset.ts";
import { CardFundingSourceTypeEnum, CardStatusEnum } from "./card.ts";

export const AccountSourceEnum = graphqlEnum(ACCOUNT_SOURCES, "AccountSource", "What an account of the unified view is (spec 2.10).");

@Directive(AGENT_TAG)
@ObjectType({ description: "What a wallet (or another account) holds of one asset (spec 2.10)." })
export class AssetBalance {
  @Field(() => Asset)
  asset!: Asset;

  @Field(() => String, { description: "In the asset's base units (wei for ETH, 10^-6 for USDC, cents for fiat), a whole decimal string." })
  balance!: string;

  @Field(() => String, { nullable: true, description: "balance × the asset's USD price, exact decimal string; null while no price is known." })
  value_usd!: string | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "Where a card's money is: the funding source its purchases debit." })
export class AccountCardFunding {
  @Field(() => CardFundingSourceTypeEnum)
  type!: string;

  @Field(() => String, { description: "The wallet id (crypto_wallet) or bank account id." })
  id!: string;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "A card entry's own facts." })
export class AccountCard {
  @Field(() => CardStatusEnum)
  status!: string;

  @Field(() => String, { description: "USD or EUR." })
  currency!: string;

  @Field(() => AccountCardFunding)
  funding_source!: AccountCardFunding;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One entry of the unified account view: a crypto wallet, a linked bank account or a card." })
export class Account {
  @Field(() => AccountSourceEnum)
  source!: string;

  @Field(() => String, { description: "The source's own id as a string: the wallet id (\"12\"), the bank account id (bnk_…), the card id (crd_…)." })
  source_id!: string;

  @Field(() => String, { nullable: true, description: "The wallet's nickname; a card's nickname, else \"Virtual card •••• 1234\" (or Physical)." })
  name!: string | null;

  @Field(() => Int, { nullable: true, description: "crypto_wallet: the wallet's chain; null for other sources." })
  chain_id!: number | null;

  @Field(() => String, { nullable: true, description: "crypto_wallet: the wallet's address (null while a Safe is deployed); null for other sources." })
  address!: string | null;

  @Field(() => [AssetBalance], { description: "Non-zero balances, crypto and fiat alike (fiat currencies are catalogue assets)." })
  balances!: AssetBalance[];

  @Field(() => String, { description: "Sum of the balances' value_usd (those with a price), exact decimal string." })
  total_value_usd!: string;

  @Field(() => AccountCard, { nullable: true, description: "source card: its status, currency and funding source; its balances are [] and its total 0, since its money is counted in the funding source's entry. Null for other sources." })
  card!: AccountCard | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "The user's unified account view (GET /v0/accounts)." })
export class AccountView {
  @Field(() => [Account])
  items!: Account[];

  @Field(() => String, { description: "Sum over every account, exact decimal string." })
  total_value_usd!: string;
}
