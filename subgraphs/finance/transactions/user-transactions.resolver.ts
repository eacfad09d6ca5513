import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, parse, type FieldNode, type GraphQLResolveInfo, type OperationDefinitionNode } from "graphql";
import { pathToArray } from "graphql/jsutils/Path.js";
import { Arg, Ctx, Directive, FieldResolver, Info, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AGENT_TAG, AgentTool, AgentWalletScoped } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { PageInput, TransactionFilter, TransactionMeta, TransactionPage } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { selectsExactly } from "../../../lib/json-text.ts";
import { listTransactionsText } from "./list-transactions.ts";
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

/**
 * The selection whose answer is a stored feed item, key for key (migration feed_item_wire_form
 * stores each item as JSON.stringify writes this selection's answer): Transaction's fields, in
 * their declared order.
 */
const STORED_ITEM = (parse("{ id type status direction amount asset { symbol decimals } currency amount_usd category description merchant { name mcc } wallet_id card_id bank_account_id counterparty chain_id tx_hash note timestamp created_at updated_at status_history { from to changed_at } }").definitions[0] as OperationDefinitionNode).selectionSet;

/** The page's `items` field when it is selected once, directly, as a stored item is: its answer is the stored items' text. */
function storedItemsField(info: GraphQLResolveInfo): FieldNode | undefined {
  if (info.fieldNodes.length !== 1) return undefined;
  const selections = info.fieldNodes[0]!.selectionSet?.selections ?? [];
  // a fragment could select items again, merged into the same key
  if (selections.some((node) => node.kind !== Kind.FIELD)) return undefined;
  const items = selections.filter((node) => (node as FieldNode).name.value === "items" || (node as FieldNode).alias?.value === "items") as FieldNode[];
  return items.length === 1 && !items[0]!.alias && !items[0]!.directives?.length && selectsExactly(items[0]!, STORED_ITEM) ? items[0] : undefined;
}

/**
 * One page of `userId`'s feed; with meta, when the query selects it, in the same statement (its
 * count is the total). The items are parsed from their stored text, unless the caller takes the
 * text as it is (lib/json-text.ts: the REST adapter) and the query selects them as stored.
 */
export async function feedPage(
  services: FinanceServices,
  userId: string,
  filter: TransactionFilter | null,
  page: PageInput | null,
  info: GraphQLResolveInfo,
  context: RequestContext,
  walletIds: readonly number[] | null = null,
): Promise<TransactionPage> {
  const query = { user_id: userId, filter: walletIds ? { ...filter, wallet_ids: walletIds } : filter };
  const { items_text, meta, pagination } = await listTransactionsText(services.db, { ...query, page, meta: selectsMeta(info) });
  const asText = context.json_text !== undefined && storedItemsField(info) !== undefined && context.json_text.offer([...pathToArray(info.path), "items"], items_text);
  return { items: asText ? [] : JSON.parse(items_text), pagination, query, meta_view: meta } as unknown as TransactionPage;
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
