-- CreateTable
CREATE TABLE "finance"."ledger_events" (
    "id" BIGSERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "ledger_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ledger_events_delivered_at_id_idx" ON "finance"."ledger_events"("delivered_at", "id");

-- The outbox trigger: every transaction recorded and every status change is published in the
-- same database transaction as the change, so no event is lost if the process dies and none is
-- published for a change that rolled back.
CREATE FUNCTION "finance"."transactions_outbox_publish"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."status" IS NOT DISTINCT FROM OLD."status" THEN
    RETURN NULL;
  END IF;
  INSERT INTO "finance"."ledger_events" ("user_id", "transaction_id", "kind", "payload")
  VALUES (NEW."user_id", NEW."id", CASE TG_OP WHEN 'INSERT' THEN 'recorded' ELSE 'status_changed' END, jsonb_build_object(
    'transaction_id', NEW."id", 'type', NEW."type", 'status', NEW."status", 'previous_status', CASE TG_OP WHEN 'UPDATE' THEN OLD."status" END,
    'direction', NEW."direction", 'amount', trim_scale(NEW."amount")::text, 'asset_symbol', NEW."asset_symbol", 'currency', NEW."currency",
    'amount_usd', trim_scale(NEW."amount_usd")::text, 'category', NEW."category", 'wallet_id', NEW."wallet_id", 'card_id', NEW."card_id",
    'bank_account_id', NEW."bank_account_id", 'merchant_name', NEW."merchant_name", 'timestamp', NEW."timestamp"));
  RETURN NULL;
END $$;

CREATE TRIGGER "transactions_outbox" AFTER INSERT OR UPDATE OF "status" ON "finance"."transactions"
  FOR EACH ROW EXECUTE FUNCTION "finance"."transactions_outbox_publish"();
