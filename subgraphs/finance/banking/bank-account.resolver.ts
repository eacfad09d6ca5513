import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, FieldResolver, ID, Info, InputType, Mutation, Query, Resolver, Root } from "type-graphql";
import { PageInput, TransactionFilter, TransactionPage } from "../types/transaction-page.ts";
import { feedPage } from "../transactions/feed-page.ts";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { BankAccount, BankLinkToken, BankPublicToken } from "../types/bank-account.ts";
import { FinanceUser } from "../types/user.ts";
import { getBankAccount, linkBankAccounts, listBankAccounts, requireBanking, unlinkBankAccount } from "./bank-accounts.ts";
import { SANDBOX_LINK_OUTCOMES } from "../../../lib/vocabulary/bank-accounts.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import { sandboxProvider } from "./bank-sandbox.ts";

@InputType({ description: "A login at a sandbox institution through the provider's widget." })
class SandboxBankLinkInput {
  @Field(() => String)
  link_token!: string;

  @Field(() => String)
  institution_id!: string;

  @Field(() => String, { nullable: true, description: "success (default) or invalid_credentials" })
  outcome?: string | null;
}

@Resolver(() => BankAccount)
export class BankAccountResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:balances")
  @Query(() => [BankAccount], { description: "The user's linked bank accounts, oldest first." })
  bank_accounts(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listBankAccounts(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @AgentTool("read:balances")
  @Query(() => BankAccount)
  bank_account(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getBankAccount(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @AgentTool("read:transactions")
  @FieldResolver(() => TransactionPage, { description: "The account's transactions (synced from the bank, and card purchases it funded), newest first." })
  transactions(
    @Root() account: BankAccount,
    @Arg("filter", () => TransactionFilter, { nullable: true }) filter: TransactionFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TransactionPage> {
    const { user_id } = requireUser(ctx.principal, "read");
    return feedPage(this.services, user_id, { ...filter, bank_account_id: account.id }, page, info, ctx);
  }

  @Mutation(() => BankLinkToken, { description: "Starts linking: a short-lived token for the banking provider's widget." })
  create_bank_link_token(@Ctx() ctx: RequestContext): Promise<BankLinkToken> {
    const { user_id } = requireUser(ctx.principal, "write");
    return requireBanking(this.services.banking).createLinkToken(user_id, new Date());
  }

  @Mutation(() => [BankAccount], { description: "Finishes linking: exchanges the widget's public token (once) for the login's accounts." })
  exchange_bank_public_token(@Arg("public_token", () => String) publicToken: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "write");
    return linkBankAccounts(this.services.db, requireBanking(this.services.banking), this.services.cardCipher, { user_id, public_token: publicToken, logger: this.services.logger });
  }

  @Mutation(() => BankAccount, { description: "Unlinks a bank account; its past transactions stay in the feed." })
  unlink_bank_account(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return unlinkBankAccount(this.services.db, this.services.banking, this.services.cardCipher, { user_id, id });
  }

  @Mutation(() => BankPublicToken, { description: "Sandbox mode only: plays the provider's linking widget for a link token." })
  sandbox_bank_link(@Arg("input", () => SandboxBankLinkInput) input: SandboxBankLinkInput, @Ctx() ctx: RequestContext): BankPublicToken {
    requireUser(ctx.principal, "write");
    return sandboxProvider(this.services).playLink(input.link_token, input.institution_id, requireOneOf(SANDBOX_LINK_OUTCOMES, input.outcome ?? "success", ["outcome"]), new Date());
  }
}

@Resolver(() => FinanceUser)
export class UserBankAccountsResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:balances")
  @FieldResolver(() => [BankAccount], { description: "The user's linked bank accounts." })
  bank_accounts(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listBankAccounts(this.services.db, user_id) : Promise.resolve([]);
  }
}
