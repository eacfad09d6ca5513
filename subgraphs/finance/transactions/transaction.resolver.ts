import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { MAX_NOTE_LENGTH } from "../../../lib/contracts/transactions.ts";
import { AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { SpendingCategoryEnum } from "../types/transaction-enums.ts";
import { Transaction } from "../types/transaction.ts";
import { sandboxDeposit, sandboxPayment } from "./sandbox-movements.ts";
import { findOwnTransaction } from "./transaction-view.ts";
import { updateTransaction } from "./update-transaction.ts";

@InputType()
class SandboxDepositInput {
  @Field(() => Int)
  wallet_id!: number;

  @Field(() => String, { description: "Asset symbol (any case), in the catalogue on the wallet's chain." })
  asset!: string;

  @Field(() => String, { description: "Positive decimal string in asset units, at most the asset's decimals." })
  amount!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType()
class SandboxMerchantInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true, description: "Four-digit merchant category code; sets the category when none is given or remembered." })
  mcc?: string | null;
}

@InputType()
class SandboxPaymentInput {
  @Field(() => Int)
  wallet_id!: number;

  @Field(() => String, { description: "Asset symbol (any case), in the catalogue on the wallet's chain." })
  asset!: string;

  @Field(() => String, { description: "Positive decimal string in asset units, at most the asset's decimals." })
  amount!: string;

  @Field(() => String, { nullable: true, description: "transfer (default), withdrawal or fee." })
  type?: string | null;

  @Field(() => SandboxMerchantInput, { nullable: true })
  merchant?: SandboxMerchantInput | null;

  @Field(() => String, { nullable: true, description: "A spending category (spec 2.10)." })
  category?: string | null;

  @Field(() => String, { nullable: true })
  counterparty?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Date, { nullable: true, description: "When it happened: now (default) or up to 400 days back." })
  timestamp?: Date | null;
}

@InputType({ description: "What the user sets on a transaction; an absent field is unchanged, null clears it." })
class UpdateTransactionInput {
  @Field(() => SpendingCategoryEnum, { nullable: true, description: "A spending category (spec 2.10); remembered for the merchant's later transactions." })
  category?: SpendingCategory | null;

  @Field(() => String, { nullable: true, description: `At most ${MAX_NOTE_LENGTH} characters.` })
  note?: string | null;
}

@Resolver(() => Transaction)
export class TransactionResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @AgentWalletScoped()
  @Query(() => Transaction, { description: "One transaction of the user." })
  transaction(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id, wallet_ids } = requireUser(ctx.principal, "read");
    return findOwnTransaction(this.services.db, user_id, id, wallet_ids);
  }

  @Mutation(() => Transaction, { description: "Sets the category and/or note of the user's transaction." })
  update_transaction(@Arg("id", () => ID) id: string, @Arg("input", () => UpdateTransactionInput) input: UpdateTransactionInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return updateTransaction(this.services.db, { user_id, transaction_id: id, ...input });
  }

  @Mutation(() => Transaction, { description: "Sandbox mode only: credit the user's wallet with a completed deposit." })
  sandbox_deposit(
    @Arg("input", () => SandboxDepositInput) input: SandboxDepositInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: "The Idempotency-Key header: a retry answers the first response." }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return sandboxDeposit(this.services, { user_id, ...input, idempotency_key: idempotencyKey, trace_id: ctx.trace_id });
  }

  @Mutation(() => Transaction, { description: "Sandbox mode only: pay a merchant or counterparty from the user's wallet (a completed outgoing movement, optionally backdated)." })
  sandbox_payment(
    @Arg("input", () => SandboxPaymentInput) input: SandboxPaymentInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: "The Idempotency-Key header: a retry answers the first response." }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return sandboxPayment(this.services, { user_id, ...input, idempotency_key: idempotencyKey, trace_id: ctx.trace_id });
  }
}
