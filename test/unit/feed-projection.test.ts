import { describe, expect, it } from "vitest";
import { leavesAsText, projection, projectStoredItems, storedItemsText } from "../../subgraphs/finance/transactions/feed-page.ts";

// Issue 30: a page's items selecting only leaves of the stored item are parsed from those values'
// text alone. Each must be what JSON.parse of the whole text gives for those keys, or undefined
// (the caller parses it all) where the text is not in the stored form.

/** A stored item as migration feed_item_wire_form writes it: every key, in this order. */
function item(id: string, changes: Partial<Record<string, unknown>> = {}) {
  return {
    id,
    type: "card_purchase",
    status: "completed",
    direction: "out",
    amount: "12.5",
    asset: { symbol: "USDC", decimals: 6 },
    currency: null,
    amount_usd: "12.5",
    category: "restaurants",
    description: "lunch",
    merchant: { name: "Café", mcc: "5814" },
    wallet_id: 7,
    card_id: "crd_1",
    bank_account_id: null,
    counterparty: null,
    chain_id: 8453,
    tx_hash: null,
    note: null,
    timestamp: 1767225600123,
    created_at: 1767225600000,
    updated_at: 1767225601000,
    status_history: [
      { from: null, to: "pending", changed_at: 1767225600000 },
      { from: "pending", to: "completed", changed_at: 1767225601000 },
    ],
    ...changes,
  };
}

// text that looks like the structure the projection cuts at, inside strings (JSON escapes their quotes)
const TRICKY = ',"timestamp":1,"created_at":2 ]} },{"id":"x" {"id" \\ \\" \u0001 \u2028 😀 ,"status_history":[';
const ITEMS = [
  item("txn_1"),
  item("txn_2", { description: TRICKY, note: TRICKY, merchant: { name: TRICKY, mcc: null }, counterparty: '0xabc\\def"', asset: null, status_history: [] }),
  item(TRICKY, { currency: "USD", amount: "0.000000000000000001", timestamp: 0, type: "deposit", direction: "in" }),
];

const pick = (items: Record<string, unknown>[], keys: readonly string[]) => items.map((value) => Object.fromEntries(keys.map((key) => [key, value[key]])));

describe("projectStoredItems", () => {
  it("gives each item's selected leaves as JSON.parse of the whole text does, in stored order", () => {
    const text = JSON.stringify(ITEMS);
    const selections = [
      ["id", "type", "direction", "amount", "currency", "status", "timestamp"],
      ["timestamp", "id"],
      ["note", "description", "counterparty"],
      ["updated_at"],
      ["amount_usd", "category", "wallet_id", "card_id", "bank_account_id", "chain_id", "tx_hash", "created_at"],
      [],
    ];
    for (const keys of selections) {
      const chosen = projection(keys);
      expect(chosen.keys).toEqual(Object.keys(ITEMS[0]!).filter((key) => keys.includes(key)));
      const projected = projectStoredItems(text, chosen);
      expect(projected).toEqual(pick(JSON.parse(text), chosen.keys));
      for (const value of projected as object[]) expect(Object.keys(value)).toEqual(chosen.keys);
    }
    expect(projectStoredItems("[]", projection(["id"]))).toEqual([]);
    expect(projectStoredItems(JSON.stringify([item("txn_1")]), projection(["status"]))).toEqual([{ status: "completed" }]);
  });

  it("keeps only leaves of the stored item: an object field is not projected", () => {
    expect(projection(["asset", "merchant", "status_history", "id", "unknown"]).keys).toEqual(["id"]);
  });

  it("answers undefined where the text is not in the stored form, so the caller parses it all", () => {
    const keys = projection(["id", "timestamp"]);
    const text = JSON.stringify(ITEMS);
    // an item written otherwise would be taken for part of the one before it, or a key of the next item for its own
    const unlike = [
      text.replace('{"id":"txn_2"', '{"id" : "txn_2"'),
      text.replace(',"timestamp":1767225600123', ',"timestamp" : 1767225600123'),
      text.replace('"status_history":[]', '"status_history" : []'),
      text.replace('}]},{"id":"txn_2"', '}]};{"id":"txn_2"'),
      text.replace(/]$/, " ]"),
      ` ${text}`,
      JSON.stringify([null, ...ITEMS]),
      JSON.stringify([...ITEMS, null]),
      JSON.stringify([ITEMS[0], null, ITEMS[1]]),
      JSON.stringify([{ ...item("txn_1"), timestamp: undefined }, item("txn_2")]),
      JSON.stringify(ITEMS, null, 1),
      "",
      "[",
    ];
    for (const variant of unlike) expect(projectStoredItems(variant, keys)).toBeUndefined();
    // spacing where the projection takes nothing changes nothing
    const spacedHistory = text.replace("}]}", "} ]}");
    expect(projectStoredItems(spacedHistory, keys)).toEqual(pick(JSON.parse(spacedHistory), keys.keys));
  });
});

describe("storedItemsText", () => {
  // what a GraphQL executor writes for items selecting these leaves: each item's keys in selection order
  const written = (text: string, selected: readonly string[]) => JSON.stringify(pick(JSON.parse(text), selected));

  it("writes the selected leaves of each item, in selection order, as JSON.stringify writes the parsed items", () => {
    const text = JSON.stringify(ITEMS);
    const selections = [
      ["id", "type", "direction", "amount", "currency", "status", "timestamp"],
      ["timestamp", "id"],
      ["note", "description", "counterparty"],
      ["updated_at", "amount_usd", "chain_id", "bank_account_id"],
      // keys stored one after the other, in that order, are one piece of the text; those before the free texts are found from an item's start, the others back from its end
      ["amount_usd", "category", "description", "id", "type", "status", "tx_hash", "note", "timestamp", "created_at", "updated_at"],
      ["description", "wallet_id", "card_id", "bank_account_id", "counterparty", "chain_id"],
      ["updated_at", "created_at", "timestamp", "note"],
    ];
    for (const selected of selections) expect(storedItemsText(text, leavesAsText(selected)!)).toBe(written(text, selected));
    expect(storedItemsText("[]", leavesAsText(["id"])!)).toBe("[]");
  });

  it("writes a string with an escape as JSON.stringify would, whatever escapes the stored text used", () => {
    // PostgreSQL's json may escape what JSON.stringify writes as it is
    const text = JSON.stringify([item("txn_1", { note: "a/b é" })]).replace("a/b é", "a\\/b \\u00e9");
    expect(JSON.parse(text)[0].note).toBe("a/b é");
    expect(storedItemsText(text, leavesAsText(["note", "id"])!)).toBe('[{"note":"a/b é","id":"txn_1"}]');
    // the same value inside a piece of several keys
    expect(storedItemsText(text, leavesAsText(["tx_hash", "note", "timestamp"])!)).toBe('[{"tx_hash":null,"note":"a/b é","timestamp":1767225600123}]');
  });

  it("answers undefined where a key is not a stored leaf or the text is not in the stored form", () => {
    const text = JSON.stringify(ITEMS);
    // a key that is no leaf of the stored item (an object field, an unknown name) has no text form
    expect(leavesAsText(["id", "amount_typo"])).toBeUndefined();
    expect(leavesAsText(["id", "asset"])).toBeUndefined();
    expect(storedItemsText(text.replace('{"id":"txn_2"', '{"id" : "txn_2"'), leavesAsText(["id"])!)).toBeUndefined();
    expect(storedItemsText(JSON.stringify([...ITEMS, null]), leavesAsText(["id"])!)).toBeUndefined();
    // a key missing from one item is not taken from the item before or after it
    const missing = (key: string) => JSON.stringify([item("txn_1"), { ...item("txn_2"), [key]: undefined }, item("txn_3")]);
    for (const key of ["type", "currency", "description", "note", "timestamp", "updated_at"]) {
      expect(storedItemsText(missing(key), leavesAsText(["id", "type", "currency", "note", "timestamp", "updated_at", "description"])!)).toBeUndefined();
      expect(projectStoredItems(missing(key), projection([key]))).toBeUndefined();
    }
    // an item without its status history is not taken for part of the next one
    expect(storedItemsText(JSON.stringify([{ ...item("txn_1"), status_history: undefined }, item("txn_2")]), leavesAsText(["id", "timestamp"])!)).toBeUndefined();
  });
});
