import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Directive, FieldResolver, Info, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AGENT_TAG, AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { PageInput, TransactionFilter, TransactionMeta, TransactionPage } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { feedPage } from "./feed-page.ts";
import { transactionMeta, type TransactionMetaView } from "./transaction-meta.ts";

@Resolver(() => FinanceUser)
export class UserTransactionsResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => TransactionPage, { description: "The user's transaction feed (spec 4.3): filters combined with AND, newest first." })
  async transactions(
    @Root() user: FinanceUser,
    @Arg("filter", () => TransactionFilter, { nullable: true }) filter: TransactionFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TransactionPage> {
    // entity references come from the gateway's plan; still, only the caller's own rows: another
    // user's feed reads as that of the id "", which no user has (an empty page, an empty meta)
    const { user_id } = requireUser(ctx.principal, "read");
    return feedPage(this.services, user_id === user.id ? user_id : "", filter, page, info, ctx);
  }

}

@Resolver()
export class TransactionFeedResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @AgentWalletScoped()
  @Query(() => TransactionPage, { description: "The signed-in user's transaction feed (spec 4.3), as User.transactions, in one subgraph fetch (GET /v0/transactions)." })
  transactions(
    @Arg("filter", () => TransactionFilter, { nullable: true }) filter: TransactionFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TransactionPage> {
    const { user_id, wallet_ids } = requireUser(ctx.principal, "read");
    return feedPage(this.services, user_id, filter, page, info, ctx, wallet_ids);
  }
}

@Resolver(() => TransactionPage)
export class TransactionPageResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive(AGENT_TAG)
  @FieldResolver(() => TransactionMeta, { description: "Counts, date range, USD cashflow and spending per category over every page (spec 2.10)." })
  meta(@Root() page: TransactionPage): TransactionMetaView | Promise<TransactionMetaView> {
    return page.meta_view ?? transactionMeta(this.services.db, page.query);
  }
}
