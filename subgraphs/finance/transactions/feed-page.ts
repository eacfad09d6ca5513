import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, parse, type FieldNode, type GraphQLResolveInfo, type OperationDefinitionNode } from "graphql";
import { pathToArray } from "graphql/jsutils/Path.js";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { selectsExactly, type JsonTextAnswers } from "../../../lib/json-text.ts";
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

/** The stored leaves from the free texts on (`description`): found searching back from an item's end. */
const TAIL_LEAVES = new Set([...STORED_LEAVES.keys()].slice([...STORED_LEAVES.keys()].indexOf("description")));

/** What a page field's items select, read once per field node: how to parse them, how to write them as text. */
interface ItemsSelection {
  /**
   * The stored keys, in stored order, that the items select when they select only leaves of the
   * stored item, as plain fields (the executor reads no other key of an item), with the text
   * around each value; undefined otherwise (a fragment, an object field such as asset, items
   * selected twice).
   */
  projection: Projection | undefined;
  /** The leaves a text of the items answers (plainLeavesOf), or undefined. */
  text: LeavesAsText | undefined;
}

function itemsSelection(info: GraphQLResolveInfo): ItemsSelection | undefined {
  if (info.fieldNodes.length !== 1) return undefined;
  const field = info.fieldNodes[0]!;
  let known = itemsSelections.get(field);
  if (known === undefined) itemsSelections.set(field, (known = { projection: projectionOf(field), text: plainLeavesOf(field) }));
  return known;
}

const itemsSelections = new WeakMap<FieldNode, ItemsSelection>();

/** The leaves a projection keeps (`keys`, in stored order), each between `,"key":` and the next stored key's `,"next":`. */
export interface Projection {
  keys: readonly string[];
  starts: readonly string[];
  ends: readonly string[];
  /** whether each key is stored right after the one before it: its start is where that one's value ends, found without a search */
  follows: readonly boolean[];
  /** the first of the keys stored after the free texts' start (`description`), found searching back from an item's end */
  tail: number;
}

export function projection(keys: readonly string[]): Projection {
  const ordered = [...STORED_LEAVES.keys()].filter((key) => keys.includes(key));
  const ends = ordered.map((key) => `,"${STORED_LEAVES.get(key)!}":`);
  const starts = ordered.map((key) => `,"${key}":`);
  const tail = ordered.findIndex((key) => TAIL_LEAVES.has(key));
  return { keys: ordered, starts, ends, follows: starts.map((start, i) => i > 0 && ends[i - 1] === start), tail: tail < 0 ? ordered.length : tail };
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

/** The stored leaves a page's items select, as a text of them answers them (storedItemsText). */
export interface LeavesAsText {
  projection: Projection;
  /** in selection order */
  selected: readonly string[];
  /**
   * The selection cut into runs of keys stored one right after the other in the same order, each
   * a piece of an item's stored text from its first key's `"key":` to its last value's end:
   * `first` and `last` are places in the projection's (stored) order, `head` what the piece
   * follows in the answer (`{` for the first run, then `,`).
   */
  runs: readonly { first: number; last: number; head: string }[];
}

/** The text form of items selecting these stored leaves, in this order; undefined where one is not a leaf of the stored item. */
export function leavesAsText(selected: readonly string[]): LeavesAsText | undefined {
  const chosen = projection(selected);
  const order = selected.map((key) => chosen.keys.indexOf(key));
  if (order.some((at) => at < 0)) return undefined;
  const runs: { first: number; last: number; head: string }[] = [];
  order.forEach((at, j) => {
    const run = runs[runs.length - 1];
    if (run && run.last + 1 === at && chosen.follows[at]) run.last = at;
    else runs.push({ first: at, last: at, head: j === 0 ? "{" : "," });
  });
  return { projection: chosen, selected, runs };
}

/**
 * The leaves the page's items select when their answer can be the stored values' text alone:
 * `items` selected once, directly, plainly (no alias or directive, as the text's path is
 * `items`), and under it only leaves of the stored item, each once and plainly (no alias,
 * directive, fragment or __typename): the executor would write exactly these keys, in this order.
 */
function plainLeavesOf(page: FieldNode): LeavesAsText | undefined {
  const selections = page.selectionSet?.selections ?? [];
  if (selections.some((node) => node.kind !== Kind.FIELD)) return undefined;
  const items = (selections as FieldNode[]).filter((node) => node.name.value === "items" || node.alias?.value === "items");
  if (items.length !== 1 || items[0]!.alias || items[0]!.directives?.length) return undefined;
  const selected: string[] = [];
  for (const node of items[0]!.selectionSet?.selections ?? []) {
    if (node.kind !== Kind.FIELD || node.alias || node.directives?.length || node.arguments?.length) return undefined;
    if (!STORED_LEAVES.has(node.name.value) || selected.includes(node.name.value)) return undefined;
    selected.push(node.name.value);
  }
  return selected.length > 0 ? leavesAsText(selected) : undefined;
}

/**
 * Offers the page's items to the caller as JSON text, where they are selected as stored (the
 * stored text) or as plain stored leaves (storedItemsText, with its keys: the gateway's shaping
 * takes such a text as it is where the client selected the same); false, they are answered as objects.
 */
function offersItemsText(answers: JsonTextAnswers, info: GraphQLResolveInfo, itemsText: string): boolean {
  const path = [...pathToArray(info.path), "items"];
  if (storedItemsField(info) !== undefined) return answers.offer(path, itemsText);
  const leaves = itemsSelection(info)?.text;
  const text = leaves && storedItemsText(itemsText, leaves);
  return text !== undefined && answers.offer(path, text, leaves!.selected);
}

/**
 * The items of a page's text (stored items as JSON.stringify writes them: migration
 * feed_item_wire_form), each with only the projection's keys, made from their values' text
 * alone: JSON.parse of the whole text was 3 to 5 % of the three-subgraph query's server CPU, for
 * 7 of 22 keys (issue 30); this takes half its time or less. undefined (parse it all) where the
 * text is not exactly so (eachStoredItem).
 */
export function projectStoredItems(text: string, projection: Projection): unknown[] | undefined {
  const items: Record<string, unknown>[] = [];
  const { keys } = projection;
  const walked = eachStoredItem(text, projection, (bounds) => {
    const item: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) item[keys[i]!] = jsonValue(text, bounds[2 * i]!, bounds[2 * i + 1]!);
    items.push(item);
  });
  return walked ? items : undefined;
}

/**
 * The text of the list `JSON.stringify` writes for the items of a page's text, each with only
 * the keys the selection asks for, in its order (a GraphQL executor writes an object's fields
 * so), cut from the stored values' text: what a page's items answer when they select only leaves
 * of the stored item (issue 30: the three-subgraph query's ten items were parsed, copied by the
 * subgraph's executor, merged and copied again by the gateway, then stringified). Keys stored
 * one after the other in the selection's order are one piece of the stored text (`runs`). A
 * string with an escape is written again by JSON.stringify, so the text is JSON.stringify's
 * whatever escapes the store chose. undefined where eachStoredItem is.
 */
export function storedItemsText(text: string, { projection, runs }: LeavesAsText): string | undefined {
  const { starts } = projection;
  let out = "[";
  const walked = eachStoredItem(text, projection, (bounds) => {
    if (out.length > 1) out += ",";
    for (let r = 0; r < runs.length; r++) {
      const { first, last, head } = runs[r]!;
      const piece = text.slice(bounds[2 * first]! - starts[first]!.length + 1, bounds[2 * last + 1]!);
      out += head + (piece.includes("\\") ? escapedAgain(text, bounds, starts, first, last) : piece);
    }
    out += runs.length === 0 ? "{}" : "}";
  });
  return walked ? out + "]" : undefined;
}

/** A run's piece with each value JSON.stringify's text of it (a value with an escape is written again). */
function escapedAgain(text: string, bounds: readonly number[], starts: readonly string[], first: number, last: number): string {
  let piece = "";
  for (let i = first; i <= last; i++) {
    const value = text.slice(bounds[2 * i]!, bounds[2 * i + 1]!);
    piece += (i === first ? starts[i]!.slice(1) : starts[i]!) + (value.includes("\\") ? JSON.stringify(JSON.parse(value)) : value);
  }
  return piece;
}

/**
 * Calls `onItem` with each item's values' bounds (the projection's keys in stored order, a
 * start and an end each) in the page's text. A value's text runs from its `,"key":` to the next
 * stored key's, which JSON writes only as structure (a quote inside a string is escaped, and no
 * nested object has a top-level key's name); an item's `{"id"` is written nowhere else, so it
 * bounds the item before; an item ends where its status history does, at its first `]}` (its
 * changes hold no text), and the next begins right after. The keys stored before the free texts
 * (`Projection.tail`) are found searching on from the item's start, the others searching back from
 * its status history: each search runs over a few keys, not over the texts. false where the text
 * is not exactly so: an item spaced otherwise, a null.
 */
function eachStoredItem(text: string, { keys, starts, ends, follows, tail }: Projection, onItem: (bounds: readonly number[]) => void): boolean {
  if (text === "[]") return true;
  if (text.charCodeAt(0) !== OPEN_BRACKET) return false;
  const bounds = new Array<number>(2 * keys.length);
  let start = 1;
  while (text.startsWith(ITEM_START, start)) {
    const next = text.indexOf('{"id"', start + 1);
    const history = text.lastIndexOf(HISTORY, next < 0 ? text.length : next);
    const close = history <= start ? -1 : text.indexOf("]}", history + HISTORY.length);
    if (close < 0) return false;
    // the item is its keys, its status history and then `,` and the next item or `]` and the end
    const last = next < 0 && close + 3 === text.length && text.charCodeAt(close + 2) === CLOSE_BRACKET;
    if (!last && !(next === close + 3 && text.charCodeAt(close + 2) === COMMA)) return false;
    let at = start;
    for (let i = 0; i < tail; i++) {
      // the item's `{"id":` is as long as `,"id":`
      const from = i === 0 && keys[0] === "id" ? start : follows[i] ? at : text.indexOf(starts[i]!, at);
      const to = from < 0 ? -1 : text.indexOf(ends[i]!, from + starts[i]!.length);
      if (to < 0 || to > history) return false;
      bounds[2 * i] = from + starts[i]!.length;
      bounds[2 * i + 1] = to;
      at = to;
    }
    let before = history;
    for (let i = keys.length - 1; i >= tail; i--) {
      const to = i + 1 < keys.length && follows[i + 1] ? before : text.lastIndexOf(ends[i]!, before);
      const from = to < 0 ? -1 : text.lastIndexOf(starts[i]!, to - 1);
      if (from < at) return false;
      bounds[2 * i] = from + starts[i]!.length;
      bounds[2 * i + 1] = to;
      before = from;
    }
    onItem(bounds);
    if (last) return true;
    start = next;
  }
  return false;
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
 * count is the total). The items are parsed from their stored text, unless the caller takes
 * JSON text (lib/json-text.ts: the REST adapter, the gateway's known queries) and the query
 * selects them as stored or as plain stored leaves (offersItemsText).
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
  const asText = context.json_text !== undefined && offersItemsText(context.json_text, info, items_text);
  const projected = asText ? undefined : itemsSelection(info)?.projection;
  const items = asText ? [] : ((projected && projectStoredItems(items_text, projected)) ?? JSON.parse(items_text));
  return { items, pagination, query, meta_view: meta } as unknown as TransactionPage;
}
