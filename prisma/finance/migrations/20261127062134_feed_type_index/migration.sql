-- DropIndex
DROP INDEX "finance"."transactions_user_id_type_idx";

-- CreateIndex
CREATE INDEX "transactions_feed_type_idx" ON "finance"."transactions"("user_id", "type", "direction", "category", "status", "timestamp", "amount_usd");
