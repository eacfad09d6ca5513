import { Ctx, Directive, FieldResolver, Resolver, Root } from "type-graphql";
import { AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import { appError } from "../../../lib/errors/app-error.ts";
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
  @AgentWalletScoped()
  @FieldResolver(() => [AssetBalance], {
    description: "What the wallet holds (GET /v0/wallets/{wallet_id}/assets): non-zero balances in base units with their USD value, from BALANCE_SOURCE (the ledger, or the chain).",
  })
  assets(@Root() wallet: FinanceWallet, @Ctx() ctx: RequestContext): Promise<AssetBalanceView[]> {
    // the users subgraph answered the wallet for this caller (WAL-404-001 otherwise, also for a
    // wallet outside an agent token's restriction); checked again here all the same
    const { wallet_ids } = requireUser(ctx.principal, "read");
    if (wallet_ids && !wallet_ids.includes(wallet.id)) throw appError("WAL-404-001");
    return walletAssets(this.services, wallet);
  }
}
