-- Each stored feed item in its wire form (issue 30): the text JSON.stringify writes for the item
-- GraphQL answers, so a REST feed page writes the stored text as it is, unparsed. The same
-- keys, order and values as before; only the spacing changes: json_build_object writes
-- `{"k" : v, "k2" : v2}` and json_agg `[a, b]`, row_to_json and string_agg below write no space,
-- as JSON.stringify does (and both escape strings alike: \" \\ \b \f \n \r \t, other control
-- characters as \u00xx). Instants stay epoch milliseconds, as the Timestamp scalar answers them.
-- The triggers of migration feed_item call this function, so they keep the new form.
CREATE OR REPLACE FUNCTION "finance"."transaction_feed_item"(t "finance"."transactions") RETURNS json LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN (SELECT row_to_json(item) FROM (SELECT t."id", t."type", t."status", t."direction", trim_scale(t."amount")::text AS "amount",
    (SELECT row_to_json(a) FROM (SELECT t."asset_symbol" AS "symbol", t."decimals") a WHERE t."asset_symbol" IS NOT NULL) AS "asset", t."currency",
    trim_scale(t."amount_usd")::text AS "amount_usd", t."category", t."description",
    (SELECT row_to_json(m) FROM (SELECT t."merchant_name" AS "name", t."merchant_mcc" AS "mcc") m WHERE t."merchant_name" IS NOT NULL OR t."merchant_mcc" IS NOT NULL) AS "merchant",
    t."wallet_id", t."card_id", t."bank_account_id", t."counterparty", t."chain_id", t."tx_hash", t."note", floor(extract(epoch FROM t."timestamp") * 1000)::bigint AS "timestamp",
    floor(extract(epoch FROM t."created_at") * 1000)::bigint AS "created_at", floor(extract(epoch FROM t."updated_at") * 1000)::bigint AS "updated_at",
    (SELECT coalesce('[' || string_agg(row_to_json(change)::text, ',' ORDER BY h."id") || ']', '[]')::json
     FROM "finance"."transaction_status_history" h CROSS JOIN LATERAL (SELECT h."from", h."to", floor(extract(epoch FROM h."changed_at") * 1000)::bigint AS "changed_at") change
     WHERE h."transaction_id" = t."id") AS "status_history") item);
END $$;

-- the items stored before, rewritten in the new form (the item's own trigger does not fire: feed_item alone is written)
UPDATE "finance"."transactions" t SET "feed_item" = "finance"."transaction_feed_item"(t);
