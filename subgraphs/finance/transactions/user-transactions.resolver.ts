import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, type GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Directive, FieldResolver, Info, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { PageInput, TransactionFilter, TransactionMeta, TransactionPage } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { listTransactions } from "./list-transactions.ts";
import { transactionMeta } from "./transaction-meta.ts";

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

@Resolver(() => FinanceUser)
export class UserTransactionsResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive(AGENT_TAG)
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
    const query = { user_id: user_id === user.id ? user_id : "", filter };
    // meta wanted too: its one aggregation runs alongside the page and gives pagination.total
    // (the same condition), instead of a count first and meta's scan after it
    const meta_view = selectsMeta(info) ? transactionMeta(this.services.db, query) : undefined;
    const total = meta_view?.then((meta) => meta.transaction_count);
    // a refused page or filter rejects these before anyone awaits them: not an unhandled rejection
    for (const pending of [meta_view, total]) pending?.catch(() => undefined);
    return { ...(await listTransactions(this.services.db, { ...query, page, ...(total && { total }) })), query, meta_view } as unknown as TransactionPage;
  }
}

@Resolver(() => TransactionPage)
export class TransactionPageResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive(AGENT_TAG)
  @FieldResolver(() => TransactionMeta, { description: "Counts, date range, USD cashflow and spending per category over every page (spec 2.10)." })
  meta(@Root() page: TransactionPage): Promise<unknown> {
    return page.meta_view ?? transactionMeta(this.services.db, page.query);
  }
}
