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
const MOVEMENT = parse(`mutation ($input: AutomationMovementInput!) { movement: _automation_movement(input: $input) { transaction_ids amount_in } }`);

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

  async move(request: AutomationMovementRequest, traceId: string): Promise<{ transaction_ids: string[]; amount_in: string }> {
    return (await this.finance.query<{ movement: { transaction_ids: string[]; amount_in: string } }>(MOVEMENT, { input: request }, traceId)).movement;
  }
}
