import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { ASSET_TYPES, PRICE_SOURCES } from "../../../lib/vocabulary/assets.ts";

export const AssetTypeEnum = graphqlEnum(ASSET_TYPES, "AssetType", "crypto: a token on chains; fiat: a currency (spec 2.10).");
export const PriceSourceEnum = graphqlEnum(PRICE_SOURCES, "PriceSource", "static: the configured prices (ASSET_PRICES); chainlink: an on-chain aggregator (PRICE_FEEDS).");

@Directive(AGENT_TAG)
@ObjectType({ description: "Where a crypto asset lives on one chain." })
export class AssetContractAddress {
  @Field(() => Int)
  chain_id!: number;

  @Field(() => String, { nullable: true, description: "The token contract; null for the chain's native coin (ETH)." })
  address!: string | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "An asset's USD price and when it was observed." })
export class AssetPriceQuote {
  @Field(() => String, { description: "USD per whole unit, decimal string." })
  value_usd!: string;

  @Field(() => Date, { description: "When the source observed the price (a static price: when it was read)." })
  timestamp!: Date;

  @Field(() => Boolean, { description: "true when the price is older than PRICE_MAX_AGE_SECONDS." })
  stale!: boolean;

  @Field(() => PriceSourceEnum)
  source!: string;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "A crypto or fiat asset of the catalogue (spec 2.10)." })
export class Asset {
  @Field(() => ID, { description: "ast_<symbol in lower case>, e.g. ast_usdc" })
  id!: string;

  @Field(() => AssetTypeEnum)
  asset_type!: string;

  @Field(() => String)
  symbol!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Int, { description: "Decimals of the base unit (USDC 6, ETH 18, fiat 2)." })
  decimals!: number;

  @Field(() => [AssetContractAddress], { description: "One entry per chain the asset is on; empty for fiat." })
  contract_addresses!: AssetContractAddress[];

  @Field(() => AssetPriceQuote, { nullable: true, description: "null while no source knows a price." })
  price!: AssetPriceQuote | null;
}
