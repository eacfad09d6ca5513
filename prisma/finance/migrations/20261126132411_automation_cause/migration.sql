-- AlterTable
ALTER TABLE "finance"."transactions" ADD COLUMN     "automation_cause" JSONB;

-- The outbox carries the cause: each event's payload gains `cause` (the transaction's
-- automation_cause, null for the user's own movement), so the agents service knows which
-- automations led to a movement after the event crossed the outbox.
CREATE OR REPLACE FUNCTION "finance"."transactions_outbox_publish"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."status" IS NOT DISTINCT FROM OLD."status" THEN
    RETURN NULL;
  END IF;
  INSERT INTO "finance"."ledger_events" ("user_id", "transaction_id", "kind", "payload")
  VALUES (NEW."user_id", NEW."id", CASE TG_OP WHEN 'INSERT' THEN 'recorded' ELSE 'status_changed' END, jsonb_build_object(
    'transaction_id', NEW."id", 'type', NEW."type", 'status', NEW."status", 'previous_status', CASE TG_OP WHEN 'UPDATE' THEN OLD."status" END,
    'direction', NEW."direction", 'amount', trim_scale(NEW."amount")::text, 'asset_symbol', NEW."asset_symbol", 'currency', NEW."currency",
    'amount_usd', trim_scale(NEW."amount_usd")::text, 'category', NEW."category", 'wallet_id', NEW."wallet_id", 'card_id', NEW."card_id",
    'bank_account_id', NEW."bank_account_id", 'merchant_name', NEW."merchant_name", 'timestamp', NEW."timestamp",
    'cause', NEW."automation_cause"));
  RETURN NULL;
END $$;
