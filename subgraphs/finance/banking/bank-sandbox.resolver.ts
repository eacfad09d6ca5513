import { Arg, Ctx, Field, ID, InputType, Mutation, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { BankingSandboxDelivery } from "../types/ramp.ts";
import { sandboxBankTransaction, sandboxConnectionEvent, sandboxSettleBankTransaction, sandboxSettleRamp } from "./bank-sandbox.ts";

@InputType({ description: "A transaction the sandbox bank books on the account." })
class SandboxBankTransactionInput {
  @Field(() => String, { description: "Positive decimal string in the account's currency, cents at most." })
  amount!: string;

  @Field(() => String, { description: "in or out" })
  direction!: string;

  @Field(() => String, { description: "bank_transfer, direct_debit, standing_order, bank_payment, bank_refund, interest or fee" })
  type!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String, { nullable: true, description: "A spending category (spec 2.10)." })
  category?: string | null;

  @Field(() => String, { nullable: true })
  merchant_name?: string | null;

  @Field(() => String, { nullable: true })
  counterparty?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Not yet posted by the bank (default false)." })
  pending?: boolean | null;
}

@InputType({ description: "How the sandbox bank settles a pending bank transaction." })
class SandboxBankSettlementInput {
  @Field(() => String, { description: "posted or removed" })
  outcome!: string;

  @Field(() => String, { nullable: true, description: "Posted at this amount instead of the booked one (as a tip changes a restaurant bill)." })
  amount?: string | null;
}

@InputType({ description: "What the sandbox provider reports about an account's login." })
class SandboxBankConnectionEventInput {
  @Field(() => String, { description: "link.completed, link.failed or link.reauth_required" })
  event!: string;
}

/** The sandbox banking provider's helpers: each acts at the sandbox bank and delivers the signed webhook a real provider would. */
@Resolver()
export class BankSandboxResolver {
  constructor(private readonly services: FinanceServices) {}

  @Mutation(() => BankingSandboxDelivery, { description: "Sandbox: the bank books a transaction on the account and announces it (transactions.available)." })
  sandbox_bank_transaction(
    @Arg("bank_account_id", () => ID) bankAccountId: string,
    @Arg("input", () => SandboxBankTransactionInput) input: SandboxBankTransactionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BankingSandboxDelivery> {
    return sandboxBankTransaction(this.services, requireUser(ctx.principal, "write").user_id, bankAccountId, input);
  }

  @Mutation(() => BankingSandboxDelivery, { description: "Sandbox: the bank posts (optionally at another amount) or removes a pending bank transaction." })
  sandbox_settle_bank_transaction(
    @Arg("transaction_id", () => ID) transactionId: string,
    @Arg("input", () => SandboxBankSettlementInput) input: SandboxBankSettlementInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BankingSandboxDelivery> {
    return sandboxSettleBankTransaction(this.services, requireUser(ctx.principal, "write").user_id, transactionId, input.outcome, input.amount ?? null);
  }

  @Mutation(() => BankingSandboxDelivery, { description: "Sandbox: the provider reports on the account's login: link.completed, link.failed or link.reauth_required." })
  sandbox_bank_connection_event(
    @Arg("bank_account_id", () => ID) bankAccountId: string,
    @Arg("input", () => SandboxBankConnectionEventInput) input: SandboxBankConnectionEventInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BankingSandboxDelivery> {
    return sandboxConnectionEvent(this.services, requireUser(ctx.principal, "write").user_id, bankAccountId, input.event);
  }

  @Mutation(() => BankingSandboxDelivery, { description: "Sandbox: the provider finishes a ramp: completed or failed." })
  sandbox_settle_ramp(@Arg("ramp_id", () => ID) rampId: string, @Arg("outcome", () => String) outcome: string, @Ctx() ctx: RequestContext): Promise<BankingSandboxDelivery> {
    return sandboxSettleRamp(this.services, requireUser(ctx.principal, "write").user_id, rampId, outcome);
  }
}
