import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, type GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Directive, FieldResolver, Info, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AGENT_TAG, AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { PageInput, TransactionFilter, TransactionMeta, TransactionPage } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { listTransactions } from "./list-transactions.ts";
import { transactionMeta, type TransactionMetaView } from "./transaction-meta.ts";

/** Whether the query selects `meta` directly under this field (through a fragment it is computed when resolved). */
export function selectsMeta(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((field) =>
    (field.selectionSet?.selections ?? []).some(
      (node) =>
        node.kind === Kind.FIELD &&
        node.name.value === "meta" &&
        getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if !== true &&
        getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false,
    ),
  );
}

/** One page of `userId`'s feed; with meta, when the query selects it, in the same statement (its count is the total). */
export async function feedPage(
  services: FinanceServices,
  userId: string,
  filter: TransactionFilter | null,
  page: PageInput | null,
  info: GraphQLResolveInfo,
  walletIds: readonly number[] | null = null,
): Promise<TransactionPage> {
  const query = { user_id: userId, filter: walletIds ? { ...filter, wallet_ids: walletIds } : filter };
  const { meta, ...answer } = await listTransactions(services.db, { ...query, page, meta: selectsMeta(info) });
  return { ...answer, query, meta_view: meta } as unknown as TransactionPage;
}

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
    return feedPage(this.services, user_id === user.id ? user_id : "", filter, page, info);
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
    return feedPage(this.services, user_id, filter, page, info, wallet_ids);
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
