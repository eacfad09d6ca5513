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

/** A stored item's top-level keys whose values are leaves (no selection under them), each with the key stored after it. */
const STORED_LEAVES = new Map(
  STORED_ITEM.selections.flatMap((node, i) => {
    const field = node as FieldNode;
    const next = STORED_ITEM.selections[i + 1] as FieldNode | undefined;
    return field.selectionSet || !next ? [] : [[field.name.value, next.name.value] as const];
  }),
);

/**
 * The stored keys, in stored order, that the page's items select when they select only leaves of
 * the stored item, as plain fields (the executor reads no other key of an item), with the text
 * around each value; undefined otherwise (a fragment, an object field such as asset, items
 * selected twice).
 */
function selectedLeaves(info: GraphQLResolveInfo): Projection | undefined {
  if (info.fieldNodes.length !== 1) return undefined;
  const field = info.fieldNodes[0]!;
  let projection = projectionsByField.get(field);
  if (projection === undefined) projectionsByField.set(field, (projection = projectionOf(field) ?? null));
  return projection ?? undefined;
}

const projectionsByField = new WeakMap<FieldNode, Projection | null>();

/** The leaves a projection keeps (`keys`, in stored order), each between `,"key":` and the next stored key's `,"next":`. */
export interface Projection {
  keys: readonly string[];
  starts: readonly string[];
  ends: readonly string[];
}

export function projection(keys: readonly string[]): Projection {
  const ordered = [...STORED_LEAVES.keys()].filter((key) => keys.includes(key));
  return { keys: ordered, starts: ordered.map((key) => `,"${key}":`), ends: ordered.map((key) => `,"${STORED_LEAVES.get(key)!}":`) };
}

function projectionOf(page: FieldNode): Projection | undefined {
  const selections = page.selectionSet?.selections ?? [];
  if (selections.some((node) => node.kind !== Kind.FIELD)) return undefined;
  const items = (selections as FieldNode[]).filter((node) => node.name.value === "items");
  if (items.length !== 1) return undefined;
  const wanted: string[] = [];
  for (const node of items[0]!.selectionSet?.selections ?? []) {
    if (node.kind !== Kind.FIELD) return undefined;
    if (node.name.value === "__typename") continue;
    if (!STORED_LEAVES.has(node.name.value)) return undefined;
    wanted.push(node.name.value);
  }
  return projection(wanted);
}

/**
 * The items of a page's text (stored items as JSON.stringify writes them: migration
 * feed_item_wire_form), each with only the projection's keys, made from their values' text
 * alone: JSON.parse of the whole text was 3 to 5 % of the three-subgraph query's server CPU, for
 * 7 of 22 keys (issue 30); this takes half its time or less. A value's text runs from its
 * `,"key":` to the next stored key's, which JSON writes only as structure (a quote inside a
 * string is escaped, and no nested object has a top-level key's name); an item ends where its
 * status history does, at its first `]}` (its changes hold no text), and the next begins right
 * after. undefined (parse it all) where the text is not exactly so: an item spaced otherwise, a null.
 */
export function projectStoredItems(text: string, { keys, starts, ends }: Projection): unknown[] | undefined {
  if (text === "[]") return [];
  if (text.charCodeAt(0) !== OPEN_BRACKET) return undefined;
  const items: Record<string, unknown>[] = [];
  let start = 1;
  while (text.startsWith(ITEM_START, start)) {
    const history = text.indexOf(HISTORY, start);
    const close = history < 0 ? -1 : text.indexOf("]}", history + HISTORY.length);
    // no other item's start inside this one (an item written otherwise would be taken for part of it)
    const other = text.indexOf('{"id"', start + 1);
    if (close < 0 || (other >= 0 && other < close)) return undefined;
    const item: Record<string, unknown> = {};
    let at = start;
    for (let i = 0; i < keys.length; i++) {
      // the item's `{"id":` is as long as `,"id":`
      const from = i === 0 && keys[0] === "id" ? start : text.indexOf(starts[i]!, at);
      const to = from < 0 ? -1 : text.indexOf(ends[i]!, from + starts[i]!.length);
      if (to < 0 || to > history) return undefined;
      item[keys[i]!] = jsonValue(text, from + starts[i]!.length, to);
      at = to;
    }
    items.push(item);
    const after = text.charCodeAt(close + 2);
    if (after === CLOSE_BRACKET && close + 3 === text.length) return items;
    if (after !== COMMA) return undefined;
    start = close + 3;
  }
  return undefined;
}

/** The value JSON.parse gives for `text` from `from` to `to`: a string without escapes is the text between its quotes. */
function jsonValue(text: string, from: number, to: number): unknown {
  const first = text.charCodeAt(from);
  if (first === QUOTE) {
    const value = text.slice(from + 1, to - 1);
    return value.includes("\\") ? JSON.parse(text.slice(from, to)) : value;
  }
  return first === LETTER_N ? null : JSON.parse(text.slice(from, to));
}

const ITEM_START = '{"id":';
const HISTORY = ',"status_history":[';
const COMMA = 44;
const QUOTE = 34;
const LETTER_N = 110;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

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
  const projected = asText ? undefined : selectedLeaves(info);
  const items = asText ? [] : ((projected && projectStoredItems(items_text, projected)) ?? JSON.parse(items_text));
  return { items, pagination, query, meta_view: meta } as unknown as TransactionPage;
}
