import { Arg, Ctx, Directive, Field, Int, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { OwnedWallet as OwnedWalletContract } from "../../../lib/owned-wallet.ts";
import type { UsersServices } from "../services.ts";

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a live wallet of one user, for the finance service's ledger." })
export class OwnedWallet {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => String, { description: "EOA or Safe" })
  type!: string;

  @Field(() => String, { nullable: true })
  address!: string | null;

  @Field(() => Boolean)
  address_verified!: boolean;
}

/**
 * Internal fields the finance subgraph calls (as its peer) to check what it books money against,
 * and the agents subgraph to check the wallets an agent token is restricted to.
 */
@Resolver()
export class OwnedWalletResolver {
  constructor(private readonly services: UsersServices) {}

  @Directive("@inaccessible")
  @Query(() => OwnedWallet, { description: "Internal (finance and agents services): the user's live wallet (EOA or Safe, not a signer address), or WAL-404-001." })
  async _owned_wallet(
    @Arg("user_id", () => String) user_id: string,
    @Arg("wallet_id", () => Int) wallet_id: number,
    @Ctx() ctx: RequestContext,
  ): Promise<OwnedWalletContract> {
    requireInternal(ctx.principal, ["finance", "agents"]);
    const wallet = await this.services.db.wallet.findFirst({
      where: { id: wallet_id, user_id, role: "wallet", deleted_at: null },
      select: { id: true, chain_id: true, type: true, address: true, address_verified_at: true },
    });
    if (!wallet) throw appError("WAL-404-001", `Wallet ${wallet_id} was not found for this user.`);
    const { address_verified_at, ...owned } = wallet;
    return { ...owned, type: wallet.type === "Safe" ? "Safe" : "EOA", address_verified: address_verified_at != null };
  }
}
