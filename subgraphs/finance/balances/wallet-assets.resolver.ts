import { Ctx, Directive, FieldResolver, Resolver, Root } from "type-graphql";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { AssetBalance } from "../types/account.ts";
import { FinanceWallet } from "../types/wallet.ts";
import { walletAssets, type AssetBalanceView } from "./wallet-assets.ts";

@Resolver(() => FinanceWallet)
export class WalletAssetsResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive('@requires(fields: "chain_id address")')
  @AgentTool("read:balances")
  @FieldResolver(() => [AssetBalance], {
    description: "What the wallet holds (GET /v0/wallets/{wallet_id}/assets): non-zero balances in base units with their USD value, from BALANCE_SOURCE (the ledger, or the chain).",
  })
  assets(@Root() wallet: FinanceWallet, @Ctx() ctx: RequestContext): Promise<AssetBalanceView[]> {
    // the users subgraph answered the wallet for this caller (WAL-404-001 otherwise)
    requireUser(ctx.principal, "read");
    return walletAssets(this.services, wallet);
  }
}
