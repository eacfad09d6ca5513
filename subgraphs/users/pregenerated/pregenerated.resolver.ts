import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { recordWalletClaim } from "./record-wallet-claim.ts";
import { listPregeneratedWallets, registerPregeneratedWallet } from "./register-pregenerated-wallet.ts";

@ObjectType({ description: "A wallet the embedded-wallet provider pregenerated for the user, claimable later." })
export class PregeneratedWallet {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: "The provider's wallet id (the claim event's data.walletId)." })
  provider_wallet_id!: string;

  @Field(() => String)
  address!: string;

  @Field(() => String, { description: "The provider's wallet type (e.g. EVM)." })
  type!: string;

  @Field(() => Date, { nullable: true, description: "When the user claimed it (from the wallet.pregen_claimed event); null until then." })
  claimed_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;
}

@InputType()
class RegisterPregeneratedWalletInput {
  @Field(() => String)
  provider_wallet_id!: string;

  @Field(() => String)
  address!: string;

  @Field(() => String)
  type!: string;

  @Field(() => Date, { description: "The instant written in the signed message." })
  issued_at!: Date;

  @Field(() => String, { description: "EIP-191 signature by the address over the pregenerated-wallet message." })
  signature!: string;
}

@InputType({ description: "A verified wallet-claimed webhook event (spec 2.8)." })
class WalletClaimInput {
  @Field(() => String, { description: "The envelope id: the de-duplication key." })
  event_id!: string;

  @Field(() => String)
  type!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => String, { nullable: true })
  wallet_id?: string | null;

  @Field(() => String, { nullable: true })
  wallet_address?: string | null;

  @Field(() => String, { nullable: true })
  wallet_type?: string | null;

  @Field(() => Date, { nullable: true })
  claimed_at?: Date | null;
}

@ObjectType()
class WalletClaimResult {
  @Field(() => String, { description: "recorded, replay, already_claimed, unknown_wallet or ignored_type" })
  outcome!: string;
}

@Resolver()
export class PregeneratedWalletResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => [PregeneratedWallet], { description: "The wallets pregenerated for the user." })
  pregenerated_wallets(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listPregeneratedWallets(this.services.db, user_id);
  }

  @Mutation(() => PregeneratedWallet)
  register_pregenerated_wallet(@Arg("input", () => RegisterPregeneratedWalletInput) input: RegisterPregeneratedWalletInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return registerPregeneratedWallet(this.services.db, { user_id, ...input, issued_at: input.issued_at.getTime() });
  }

  @Mutation(() => WalletClaimResult, { description: "Internal: the REST adapter's wallet-claimed webhook receiver only." })
  async record_wallet_claim(@Arg("input", () => WalletClaimInput) input: WalletClaimInput, @Ctx() ctx: RequestContext): Promise<WalletClaimResult> {
    requireInternal(ctx.principal, "rest-adapter");
    const outcome = await recordWalletClaim(this.services.db, input);
    this.services.logger.info({ event_id: input.event_id, type: input.type, outcome }, "wallet-claimed webhook");
    return { outcome };
  }
}
