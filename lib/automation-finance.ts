// The contract of the finance subgraph's internal automation fields: finance answers them, the
// agents subgraph's strategies ask them (as its peer). Described once here because neither
// subgraph may import the other's internals.

import { parse } from "graphql";
import type { FederatedClient } from "./graphql/federated-client.ts";

const WALLET_AVAILABLE = parse(`query ($user_id: String!, $wallet_id: Int!, $asset: String!) { available: _wallet_available(user_id: $user_id, wallet_id: $wallet_id, asset: $asset) }`);
const SPENDING_SINCE = parse(`query ($user_id: String!, $category: String!, $since: Timestamp!) { total: _spending_since(user_id: $user_id, category: $category, since: $since) }`);
const CARD_PURCHASES = parse(`query ($user_id: String!, $after: Timestamp!, $until: Timestamp!, $limit: Int!) {
  purchases: _card_purchases_after(user_id: $user_id, after: $after, until: $until, limit: $limit) { id amount unit wallet_id created_at }
}`);
const ASSET_PRICE = parse(`query ($symbol: String!) { price: _asset_price(symbol: $symbol) }`);
const LEDGER_EVENTS = parse(`query ($limit: Int!) { events: _ledger_events(limit: $limit) { id user_id kind payload created_at } }`);
const ACK_LEDGER_EVENTS = parse(`mutation ($ids: [String!]!) { acknowledged: _ack_ledger_events(ids: $ids) }`);
const SYNC_EXTERNAL = parse(`mutation ($user_id: String!, $account_id: String!, $provider: String!, $name: String!, $movements: [ExternalMovementInput!]!) {
  recorded: _sync_external_account(user_id: $user_id, account_id: $account_id, provider: $provider, name: $name, movements: $movements)
}`);
const TRANSACTIONS_AFTER = parse(`query ($user_id: String!, $after: Timestamp, $limit: Int!) {
  entries: _transactions_after(user_id: $user_id, after: $after, limit: $limit) { id type direction status amount unit amount_usd category timestamp created_at }
}`);
const CLOSE_EXTERNAL = parse(`mutation ($user_id: String!, $account_id: String!) { closed: _close_external_account(user_id: $user_id, account_id: $account_id) }`);
const MOVEMENT = parse(`mutation ($input: AutomationMovementInput!) { movement: _automation_movement(input: $input) { transaction_ids amount_in } }`);

/**
 * Why automation made a movement (issue 26: automation has causation). Finance keeps it on each
 * transaction the movement books (`finance.transactions.automation_cause`) and the ledger's outbox
 * copies it into each event's payload (`cause`), so the agents service sees, for every event, which
 * automations led to it. A user's own movement has none (null).
 */
export interface AutomationCause {
  /** what started the chain: the user's own movement's ledger event (`ledger:<id>`), a schedule slot (`time:<ms>`), a price crossing, a scheduled strategy run, or a task the user made (`task:<id>`) */
  root: string;
  /** the automations that led here, first to last: `rule:<rul_id>`, `strategy:<ust_id>` */
  chain: string[];
  /** automation hops from the root: 1 for a movement automation made on a user's movement or the clock, 2 for one made on such a movement, … */
  depth: number;
  /** the firing that made it: the rule execution (`rex_…`), or the strategy run's task or its dedupe key */
  firing_id: string;
}

/** A ledger outbox event: a transaction recorded, or its status changed; `payload` is the transaction after it. */
export interface LedgerEvent {
  id: string;
  user_id: string;
  kind: "recorded" | "status_changed";
  payload: {
    transaction_id: string;
    type: string;
    status: string;
    previous_status: string | null;
    direction: "in" | "out";
    amount: string;
    asset_symbol: string | null;
    currency: string | null;
    amount_usd: string | null;
    category: string | null;
    wallet_id: number | null;
    card_id: string | null;
    bank_account_id: string | null;
    merchant_name: string | null;
    timestamp: string;
    /** automation's cause of the transaction; null (absent on events published before causation) for the user's own */
    cause?: AutomationCause | null;
  };
}

/** A movement at an outside account (an exchange) as its connector reports it: recorded once per account and `external_id`. */
export interface ExternalMovement {
  external_id: string;
  type: "deposit" | "withdrawal" | "swap";
  direction: "in" | "out";
  asset: string;
  amount: string;
  timestamp: Date;
  description: string;
}

/** A ledger row as an export (accounting, tax) takes it; instants in epoch milliseconds. */
export interface LedgerEntry {
  id: string;
  type: string;
  direction: string;
  status: string;
  amount: string;
  unit: string;
  amount_usd: string | null;
  category: string | null;
  timestamp: number;
  created_at: number;
}

export interface CardPurchase {
  id: string;
  amount: string;
  unit: string;
  wallet_id: number | null;
}

export interface AutomationMovementRequest {
  user_id: string;
  /** the run's key: repeating the run with it moves nothing more */
  key: string;
  from_wallet_id: number;
  /** a transfer's target wallet; null for a swap */
  to_wallet_id: number | null;
  asset: string;
  /** a swap's asset bought; null for a transfer */
  buy_asset: string | null;
  amount: string;
  description: string;
  /** why automation makes it: kept on its transactions and their ledger events */
  cause: AutomationCause;
}

/** What finance tells a strategy, and the movements it makes for one; errors are finance's catalogue errors as they are. */
export class AutomationFinance {
  constructor(private readonly finance: FederatedClient) {}

  async walletAvailable(userId: string, walletId: number, asset: string, traceId: string): Promise<string> {
    return (await this.finance.query<{ available: string }>(WALLET_AVAILABLE, { user_id: userId, wallet_id: walletId, asset }, traceId)).available;
  }

  async spendingSince(userId: string, category: string, since: Date, traceId: string): Promise<string> {
    return (await this.finance.query<{ total: string }>(SPENDING_SINCE, { user_id: userId, category, since: since.getTime() }, traceId)).total;
  }

  async cardPurchases(userId: string, window: { after: Date; until: Date }, traceId: string): Promise<CardPurchase[]> {
    return (await this.finance.query<{ purchases: CardPurchase[] }>(CARD_PURCHASES, { user_id: userId, after: window.after.getTime(), until: window.until.getTime(), limit: 500 }, traceId)).purchases;
  }

  /** The asset's USD price now, or null when none is known. */
  async assetPrice(symbol: string, traceId: string): Promise<string | null> {
    return (await this.finance.query<{ price: string | null }>(ASSET_PRICE, { symbol }, traceId)).price;
  }

  /** The oldest undelivered outbox events, in order. */
  async ledgerEvents(limit: number, traceId: string): Promise<LedgerEvent[]> {
    return (await this.finance.query<{ events: LedgerEvent[] }>(LEDGER_EVENTS, { limit }, traceId)).events;
  }

  /** Marks events delivered once their effects are recorded here. */
  async acknowledge(ids: string[], traceId: string): Promise<void> {
    if (ids.length > 0) await this.finance.query(ACK_LEDGER_EVENTS, { ids }, traceId);
  }

  /** Records an outside account's movements (once each); answers how many were new. */
  async syncExternalAccount(
    input: { user_id: string; account_id: string; provider: string; name: string; movements: ExternalMovement[] },
    traceId: string,
  ): Promise<number> {
    const movements = input.movements.map((movement) => ({ ...movement, timestamp: movement.timestamp.getTime() }));
    return (await this.finance.query<{ recorded: number }>(SYNC_EXTERNAL, { ...input, movements }, traceId)).recorded;
  }

  /** The user's transactions recorded after `after` (not failed), oldest first. */
  async transactionsAfter(userId: string, after: Date | null, limit: number, traceId: string): Promise<LedgerEntry[]> {
    return (await this.finance.query<{ entries: LedgerEntry[] }>(TRANSACTIONS_AFTER, { user_id: userId, after: after?.getTime() ?? null, limit }, traceId)).entries;
  }

  /** Closes an outside account (its connector was disconnected); its rows stay. */
  async closeExternalAccount(userId: string, accountId: string, traceId: string): Promise<void> {
    await this.finance.query(CLOSE_EXTERNAL, { user_id: userId, account_id: accountId }, traceId);
  }

  async move(request: AutomationMovementRequest, traceId: string): Promise<{ transaction_ids: string[]; amount_in: string }> {
    return (await this.finance.query<{ movement: { transaction_ids: string[]; amount_in: string } }>(MOVEMENT, { input: request }, traceId)).movement;
  }
}
