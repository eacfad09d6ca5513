import { AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import type { AssetPrice } from "../prices/asset-prices.ts";
import type { AssetType } from "../../../lib/vocabulary/assets.ts";
import { Asset, AssetPriceQuote, AssetTypeEnum } from "../types/asset.ts";
import type { AssetView } from "./asset-view.ts";
import { getAsset } from "./get-asset.ts";
import { listAssets } from "./list-assets.ts";

@Resolver(() => Asset)
export class AssetResolver {
  constructor(private readonly services: FinanceServices) {}

  // the catalogue holds nobody's data: a token restricted to some wallets reads all of it
  @AgentTool("read:balances")
  @AgentWalletScoped()
  @Query(() => [Asset], { description: "The asset catalogue (GET /v0/assets); filters combine with AND." })
  assets(
    @Ctx() ctx: RequestContext,
    @Arg("asset_type", () => AssetTypeEnum, { nullable: true }) assetType?: AssetType | null,
    @Arg("chain_id", () => Int, { nullable: true, description: "crypto assets on this chain; not with asset_type fiat" }) chainId?: number | null,
    @Arg("symbol", () => String, { nullable: true, description: "any case" }) symbol?: string | null,
  ): Promise<AssetView[]> {
    requireUser(ctx.principal, "read");
    return listAssets(this.services.db, { asset_type: assetType, chain_id: chainId, symbol });
  }

  @AgentTool("read:balances")
  @AgentWalletScoped()
  @Query(() => Asset, { description: "One asset of the catalogue (GET /v0/assets/{asset_id})." })
  asset(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AssetView> {
    requireUser(ctx.principal, "read");
    return getAsset(this.services.db, id);
  }

  @FieldResolver(() => AssetPriceQuote, { nullable: true })
  price(@Root() asset: AssetView): Promise<AssetPrice | null> {
    return this.services.prices.price(asset.symbol);
  }
}
