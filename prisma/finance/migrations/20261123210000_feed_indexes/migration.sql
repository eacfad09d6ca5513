-- CreateIndex
CREATE INDEX "transactions_feed_meta_idx" ON "finance"."transactions"("user_id", "direction", "category", "status", "timestamp", "amount_usd");
