// A large transaction feed written in a few statements (generate_series), for the bench's feed case
// and the query-plan test: a deterministic, realistic mix of types, directions, statuses,
// categories, sources, USD values and timestamps over about two years, with status histories as
// recordMovement writes them (pending first, every step).

export interface FeedSeed {
  user_id: string;
  /** how many transactions */
  count: number;
  /** the user's wallets the wallet-booked rows spread over (one or two is typical) */
  wallet_ids: number[];
  /** distinguishes the ids of several seeds in one database */
  id_prefix: string;
  /** the newest timestamp; the rest reach back about two years */
  newest?: Date;
}

const TWO_YEARS_MS = 730 * 86_400_000;

/**
 * The statements, in order: transactions, their status histories, their outbox events marked
 * delivered. Values are literals checked here. Where a ledger-event consumer runs (a started
 * platform), run them in one transaction: committed one by one, the events are undelivered news
 * between the first and the last.
 */
export function feedSeedStatements(seed: FeedSeed): string[] {
  const { user_id, count, wallet_ids, id_prefix } = seed;
  if (!/^[a-z0-9_]+$/i.test(user_id) || !/^[a-z0-9_]+$/i.test(id_prefix)) throw new Error("feed seed: ids must be [a-z0-9_]");
  if (!Number.isInteger(count) || count < 1 || wallet_ids.length === 0 || !wallet_ids.every(Number.isInteger)) throw new Error("feed seed: bad count or wallets");
  const newest = (seed.newest ?? new Date()).getTime();
  const step = TWO_YEARS_MS / count;
  const wallets = `ARRAY[${wallet_ids.join(",")}]::int[]`;
  // h and k: deterministic pseudo-random numbers per row (0..9999 for amounts and statuses, 0..99 for the type)
  return [
    `INSERT INTO "finance"."transactions"
       ("id","user_id","type","status","direction","amount","asset_symbol","currency","decimals","amount_usd","category","description",
        "merchant_name","merchant_mcc","wallet_id","card_id","bank_account_id","counterparty","chain_id","tx_hash","timestamp","created_at","updated_at")
     SELECT
       'txn_${id_prefix}_' || lpad(g::text, 9, '0'), '${user_id}', kind.type, st.status, kind.direction,
       CASE WHEN kind.source = 'wallet' AND h % 3 = 0 THEN round((h % 997 + 1) / 10000.0, 6) ELSE round((h % 20000 + 100) / 100.0, 2) END,
       CASE WHEN kind.source = 'wallet' THEN (CASE WHEN h % 3 = 0 THEN 'ETH' ELSE 'USDC' END) END,
       CASE WHEN kind.source <> 'wallet' THEN 'USD' END,
       CASE WHEN kind.source = 'wallet' THEN (CASE WHEN h % 3 = 0 THEN 18 ELSE 6 END) ELSE 2 END,
       CASE WHEN h % 20 = 0 THEN NULL
            WHEN kind.source = 'wallet' AND h % 3 = 0 THEN round((h % 997 + 1) / 10000.0 * 3000, 2)
            ELSE round((h % 20000 + 100) / 100.0, 2) END,
       CASE WHEN kind.direction = 'out' AND kind.type IN ('card_purchase','bank_payment','direct_debit','standing_order') AND h % 7 <> 0
            THEN (ARRAY['restaurants','groceries','transportation','entertainment','shopping','utilities','travel','health','other'])[h % 9 + 1] END,
       kind.type || ' ' || g,
       CASE WHEN kind.type = 'card_purchase' THEN 'Merchant ' || (h % 150) END,
       CASE WHEN kind.type = 'card_purchase' THEN (5000 + h % 900)::text END,
       CASE WHEN kind.source = 'wallet' THEN (${wallets})[g % ${wallet_ids.length} + 1] END,
       CASE WHEN kind.source = 'card' THEN 'crd_${id_prefix}' END,
       CASE WHEN kind.source = 'bank_account' THEN 'bnk_${id_prefix}' END,
       CASE WHEN kind.type IN ('transfer','withdrawal','deposit') THEN '0x' || lpad(to_hex(h), 40, '0') END,
       CASE WHEN kind.source = 'wallet' THEN 8453 END,
       CASE WHEN kind.source = 'wallet' THEN '0x' || md5('${id_prefix}' || g) || md5(g || '${id_prefix}') END,
       ts, ts, ts
     FROM generate_series(1, ${count}) AS g
     CROSS JOIN LATERAL (SELECT ((g::bigint * 7919 + g::bigint / 7 * 104729) % 10000)::int AS h, ((g::bigint * 2654435761) % 4294967291 % 100)::int AS k) AS r
     CROSS JOIN LATERAL (SELECT to_timestamp(round(${newest} - (g - 1)::numeric * ${step} - (h * 37) % 600000) / 1000.0) AS ts) AS t
     CROSS JOIN LATERAL (SELECT
       CASE WHEN k < 40 THEN 'card_purchase' WHEN k < 43 THEN 'card_refund' WHEN k < 53 THEN 'transfer' WHEN k < 61 THEN 'deposit'
            WHEN k < 66 THEN 'withdrawal' WHEN k < 72 THEN 'swap' WHEN k < 80 THEN 'bank_payment' WHEN k < 85 THEN 'direct_debit'
            WHEN k < 88 THEN 'standing_order' WHEN k < 90 THEN 'bank_refund' WHEN k < 93 THEN 'interest' ELSE 'fee' END AS type) AS ty
     CROSS JOIN LATERAL (SELECT ty.type,
       CASE WHEN ty.type IN ('card_refund','deposit','bank_refund','interest') OR (ty.type IN ('transfer','swap') AND h % 2 = 0) THEN 'in' ELSE 'out' END AS direction,
       CASE WHEN ty.type LIKE 'card%' THEN 'card' WHEN ty.type LIKE 'bank%' OR ty.type IN ('direct_debit','standing_order') THEN 'bank_account' ELSE 'wallet' END AS source) AS kind
     CROSS JOIN LATERAL (SELECT CASE WHEN g <= 30 AND h % 2 = 0 THEN 'pending' WHEN g <= 60 AND h % 2 = 0 THEN 'processing'
       WHEN h % 25 = 0 THEN 'failed' ELSE 'completed' END AS status) AS st`,
    // pending, then every step to the row's status, all at its time (as recordMovement writes them)
    `INSERT INTO "finance"."transaction_status_history" ("transaction_id","from","to","changed_at")
     SELECT t."id", s."from", s."to", t."created_at"
     FROM "finance"."transactions" t
     CROSS JOIN LATERAL (VALUES (1, NULL, 'pending'), (2, 'pending', 'processing'), (3, 'processing', t."status")) AS s(n, "from", "to")
     WHERE t."id" LIKE 'txn\\_${id_prefix}\\_%' AND (s.n = 1 OR (s.n = 2 AND t."status" <> 'pending') OR (s.n = 3 AND t."status" IN ('completed','failed')))
     ORDER BY t."id", s.n`,
    // a history import is not news: automation reacts to new movements, so its outbox events count as delivered
    `UPDATE "finance"."ledger_events" SET "delivered_at" = now() WHERE "delivered_at" IS NULL AND "user_id" = '${user_id}' AND "transaction_id" LIKE 'txn\\_${id_prefix}\\_%'`,
  ];
}
