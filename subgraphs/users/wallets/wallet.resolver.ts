import { AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { WalletRole, WalletType } from "../../../lib/vocabulary/wallets.ts";
import type { UsersServices } from "../services.ts";
import { listWallets } from "../user/user-queries.ts";
import { WalletRoleEnum, WalletTypeEnum } from "../types/enums.ts";
import { Wallet } from "../types/wallet.ts";
import { proveWalletAddress } from "./address-proof.ts";
import { deleteWallet } from "./delete-wallet.ts";
import { registerWallet } from "./register-wallet.ts";
import { updateWallet } from "./update-wallet.ts";
import { findOwnWallet } from "./wallet-access.ts";

@InputType()
class UpdateWalletInput {
  @Field(() => String, { nullable: true, description: "New nickname; null clears it." })
  nickname?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true designates this wallet the primary wallet of its type." })
  is_primary?: boolean;

  @Field(() => Boolean, { nullable: true, description: "true retries a failed Safe creation." })
  retry_safe_creation?: boolean;
}

@InputType()
class RegisterWalletInput {
  @Field(() => String)
  address!: string;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => WalletTypeEnum, { description: "EOA or Safe" })
  type!: WalletType;

  @Field(() => WalletRoleEnum, { nullable: true, description: "wallet (default) or signer" })
  role?: WalletRole | null;

  @Field(() => String, { nullable: true })
  nickname?: string | null;

  @Field(() => Date, { description: "The instant written in the signed message." })
  issued_at!: Date;

  @Field(() => String, { description: "Signature by the address over the registration message." })
  signature!: string;
}

@InputType()
class WalletAddressProofInput {
  @Field(() => Date, { nullable: true, description: "With signature: the instant written in the signed message." })
  issued_at?: Date | null;

  @Field(() => String, { nullable: true, description: "The address's signature over the address-proof message; not needed when the JWT vouches for the address." })
  signature?: string | null;
}

@ObjectType()
class WalletUpdate {
  @Field(() => Wallet)
  wallet!: Wallet;

  @Field(() => Wallet, { nullable: true, description: "The Safe whose deployment this change started, if any." })
  triggered_safe!: Wallet | null;
}

@Resolver(() => Wallet)
export class WalletResolver {
  constructor(private readonly services: UsersServices) {}

  @AgentTool("read:balances")
  @AgentWalletScoped()
  @Query(() => [Wallet], { description: "The user's EOA and Safe wallets; signer-only addresses never appear." })
  wallets(
    @Ctx() ctx: RequestContext,
    @Arg("chain_id", () => Int, { nullable: true }) chainId?: number | null,
    @Arg("is_eoa", () => Boolean, { nullable: true }) isEoa?: boolean | null,
  ): Promise<unknown[]> {
    const { user_id, wallet_ids } = requireUser(ctx.principal, "read");
    return listWallets(this.services.db, user_id, { ...(wallet_ids && { walletIds: wallet_ids }), chainId, ...(isEoa != null && { type: isEoa ? "EOA" : "Safe" }) });
  }

  @AgentTool("read:balances")
  @AgentWalletScoped()
  @Query(() => Wallet, { description: "One wallet of the user, signer rows included." })
  wallet(@Arg("id", () => Int) id: number, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id, wallet_ids } = requireUser(ctx.principal, "read");
    if (wallet_ids && !wallet_ids.includes(id)) throw appError("WAL-404-001");
    return findOwnWallet(this.services.db, user_id, id);
  }

  @FieldResolver(() => Boolean, {
    description:
      "Whether the address is proven to be the user's (a signature by it, or a JWT vouching for it). Until it is, funding a card or an off-ramp from the wallet, adopting a Safe it owns (byo onboarding) and PINT mandates for it are refused (WAL-403-001, PINT-403-001); POST /v0/wallets/{wallet_id}/address-proof proves it.",
  })
  address_verified(@Root() wallet: { address_verified_at: Date | null }): boolean {
    return wallet.address_verified_at != null;
  }

  @Mutation(() => Wallet, { description: "POST /v0/wallets/{wallet_id}/address-proof: proves the wallet's address is the user's." })
  async prove_wallet_address(@Arg("id", () => Int) id: number, @Arg("input", () => WalletAddressProofInput) input: WalletAddressProofInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    const jwt = ctx.principal.kind === "user" ? ctx.principal.jwt : undefined;
    return proveWalletAddress(this.services.db, {
      user_id,
      wallet_id: id,
      ...(jwt?.wallet_addresses && { jwt_wallet_addresses: jwt.wallet_addresses }),
      issued_at: input.issued_at?.getTime() ?? null,
      signature: input.signature ?? null,
      chainRpcUrls: this.services.chainRpcUrls,
    });
  }

  @Mutation(() => Wallet)
  async register_wallet(@Arg("input", () => RegisterWalletInput) input: RegisterWalletInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return registerWallet(this.services.db, {
      user_id,
      ...input,
      role: input.role ?? "wallet",
      issued_at: input.issued_at.getTime(),
      supportedChainIds: this.services.supportedChainIds,
      chainRpcUrls: this.services.chainRpcUrls,
    });
  }

  @Mutation(() => WalletUpdate)
  async update_wallet(
    @Arg("id", () => Int) id: number,
    @Arg("input", () => UpdateWalletInput) input: UpdateWalletInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    const result = await updateWallet(this.services.db, { user_id, wallet_id: id, ...input, limits: this.services.environmentLimits });
    if (result.triggered_safe) this.services.jobs.wake();
    return result;
  }

  @Mutation(() => Wallet)
  delete_wallet(@Arg("id", () => Int) id: number, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return deleteWallet(this.services.db, { user_id, wallet_id: id });
  }
}

/**
 * Wallet references other subgraphs return (a card's funding wallet): resolved only for the
 * signed-in user who owns the wallet; anyone else, and any other caller, reads null.
 */
export function resolveWalletReference(services: UsersServices) {
  return async (reference: { id: number }, ctx: RequestContext) => {
    if (ctx.principal.kind !== "user" || ctx.principal.user_id === null) return null;
    return services.db.wallet.findFirst({ where: { id: reference.id, user_id: ctx.principal.user_id, deleted_at: null } });
  };
}
