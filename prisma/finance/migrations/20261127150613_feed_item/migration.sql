-- Each transaction's feed item (issue 30): the row in the feed's shape (instants as epoch ms,
-- decimals as trim_scale text, asset and merchant objects, status_history oldest first), kept
-- in the statement of every write that changes it, so a feed page copies 50 stored values
-- (json, not jsonb: the stored text is what the page returns, byte for byte) instead of
-- building 50 rows and 50 histories. Triggers rather than the writers: they cover every writer,
-- raw SQL included.

-- AlterTable
ALTER TABLE "finance"."transactions" ADD COLUMN     "feed_item" json;

-- The item of row t with its history as the table holds it now. row_to_json writes an object as
-- json_agg writes a row's, so a page's json_agg of stored items is the text it built before.
-- plpgsql: its statement's plan is kept for the session (an SQL function's is made at each call).
CREATE FUNCTION "finance"."transaction_feed_item"(t "finance"."transactions") RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT row_to_json(item) FROM (SELECT t."id", t."type", t."status", t."direction", trim_scale(t."amount")::text AS "amount",
    CASE WHEN t."asset_symbol" IS NOT NULL THEN json_build_object('symbol', t."asset_symbol", 'decimals', t."decimals") END AS "asset", t."currency",
    trim_scale(t."amount_usd")::text AS "amount_usd", t."category", t."description",
    CASE WHEN t."merchant_name" IS NOT NULL OR t."merchant_mcc" IS NOT NULL THEN json_build_object('name', t."merchant_name", 'mcc', t."merchant_mcc") END AS "merchant",
    t."wallet_id", t."card_id", t."bank_account_id", t."counterparty", t."chain_id", t."tx_hash", t."note", floor(extract(epoch FROM t."timestamp") * 1000)::bigint AS "timestamp",
    floor(extract(epoch FROM t."created_at") * 1000)::bigint AS "created_at", floor(extract(epoch FROM t."updated_at") * 1000)::bigint AS "updated_at",
    (SELECT coalesce(json_agg(json_build_object('from', h."from", 'to', h."to", 'changed_at', floor(extract(epoch FROM h."changed_at") * 1000)::bigint) ORDER BY h."id"), '[]')
     FROM "finance"."transaction_status_history" h WHERE h."transaction_id" = t."id") AS "status_history") item);
END $$;

-- A row written with any column of its item (an UPDATE naming none of them, or only feed_item,
-- leaves it alone).
CREATE FUNCTION "finance"."transactions_feed_item"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW."feed_item" := "finance"."transaction_feed_item"(NEW);
  RETURN NEW;
END $$;

CREATE TRIGGER "transactions_feed_item" BEFORE INSERT OR UPDATE OF "id", "type", "status", "direction", "amount", "asset_symbol", "currency", "decimals",
  "amount_usd", "category", "description", "merchant_name", "merchant_mcc", "wallet_id", "card_id", "bank_account_id", "counterparty", "chain_id", "tx_hash",
  "note", "timestamp", "created_at", "updated_at"
  ON "finance"."transactions" FOR EACH ROW EXECUTE FUNCTION "finance"."transactions_feed_item"();

-- A statement writing status history rebuilds the items of the transactions it touched, once
-- each, in one UPDATE (a seed or import writes many histories in one statement).
CREATE FUNCTION "finance"."transaction_status_history_feed_item"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "finance"."transactions" t SET "feed_item" = "finance"."transaction_feed_item"(t) WHERE t."id" = ANY (ARRAY(SELECT "transaction_id" FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE "finance"."transactions" t SET "feed_item" = "finance"."transaction_feed_item"(t)
    WHERE t."id" = ANY (ARRAY(SELECT "transaction_id" FROM new_rows UNION SELECT "transaction_id" FROM old_rows));
  ELSE
    UPDATE "finance"."transactions" t SET "feed_item" = "finance"."transaction_feed_item"(t) WHERE t."id" = ANY (ARRAY(SELECT "transaction_id" FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "transaction_status_history_feed_item_insert" AFTER INSERT ON "finance"."transaction_status_history"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transaction_status_history_feed_item"();
CREATE TRIGGER "transaction_status_history_feed_item_update" AFTER UPDATE ON "finance"."transaction_status_history"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transaction_status_history_feed_item"();
CREATE TRIGGER "transaction_status_history_feed_item_delete" AFTER DELETE ON "finance"."transaction_status_history"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transaction_status_history_feed_item"();

-- the transactions recorded before the triggers existed
UPDATE "finance"."transactions" t SET "feed_item" = "finance"."transaction_feed_item"(t);
