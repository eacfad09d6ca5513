import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../lib/auth/authorize.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import type { FinanceServices } from "./services.ts";
import { Asset } from "./types/asset.ts";
import { Card } from "./types/card.ts";
import { FinanceUser } from "./types/user.ts";

@Resolver(() => FinanceUser)
export class FinanceUserResolver {
  constructor(private readonly services: FinanceServices) {}

  @FieldResolver(() => [Card])
  cards(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    // entity references come from the gateway's plan; still, only the caller's own cards
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve([]);
    return this.services.db.card.findMany({ where: { user_id: user.id }, orderBy: { created_at: "asc" } });
  }
}

@Resolver(() => Asset)
export class AssetResolver {
  constructor(private readonly services: FinanceServices) {}

  @Query(() => [Asset], { description: "The asset catalogue (GET /v0/assets)." })
  assets(
    @Arg("asset_type", () => String, { nullable: true }) assetType?: string | null,
    @Arg("chain_id", () => Int, { nullable: true }) chainId?: number | null,
    @Arg("symbol", () => String, { nullable: true }) symbol?: string | null,
  ): Promise<unknown[]> {
    return this.services.db.asset.findMany({
      where: {
        ...(assetType != null && { asset_type: assetType }),
        ...(chainId != null && { chain_id: chainId }),
        ...(symbol != null && { symbol: { equals: symbol, mode: "insensitive" as const } }),
      },
      orderBy: [{ symbol: "asc" }, { id: "asc" }],
    });
  }
}
