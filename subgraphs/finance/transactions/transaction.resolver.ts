import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { Transaction } from "../types/transaction.ts";
import { sandboxDeposit } from "./sandbox-deposit.ts";
import { findOwnTransaction } from "./transaction-record.ts";

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

@Resolver(() => Transaction)
export class TransactionResolver {
  constructor(private readonly services: FinanceServices) {}

  @Query(() => Transaction, { description: "One transaction of the user." })
  transaction(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return findOwnTransaction(this.services.db, user_id, id);
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
}
