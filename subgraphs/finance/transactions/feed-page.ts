import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, parse, type FieldNode, type GraphQLResolveInfo, type OperationDefinitionNode } from "graphql";
import { pathToArray } from "graphql/jsutils/Path.js";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { selectsExactly } from "../../../lib/json-text.ts";
import type { FinanceServices } from "../services.ts";
import type { PageInput, TransactionFilter, TransactionPage } from "../types/transaction-page.ts";
import { listTransactionsText } from "./list-transactions.ts";

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
