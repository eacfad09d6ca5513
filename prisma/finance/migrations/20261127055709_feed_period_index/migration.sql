-- CreateIndex
CREATE INDEX "transactions_feed_period_idx" ON "finance"."transactions"("user_id", "timestamp", "direction", "category", "status", "amount_usd");
