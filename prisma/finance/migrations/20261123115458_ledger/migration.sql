-- CreateTable
CREATE TABLE "finance"."transactions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "amount" DECIMAL(78,18) NOT NULL,
    "asset_symbol" TEXT,
    "currency" TEXT,
    "decimals" INTEGER NOT NULL,
    "amount_usd" DECIMAL(78,18),
    "category" TEXT,
    "description" TEXT,
    "merchant_name" TEXT,
    "merchant_mcc" TEXT,
    "wallet_id" INTEGER,
    "card_id" TEXT,
    "bank_account_id" TEXT,
    "counterparty" TEXT,
    "chain_id" INTEGER,
    "tx_hash" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."transaction_status_history" (
    "id" SERIAL NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transaction_status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."idempotency_keys" (
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id","key")
);

-- CreateIndex
CREATE INDEX "transactions_user_id_timestamp_id_idx" ON "finance"."transactions"("user_id", "timestamp" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_user_id_type_idx" ON "finance"."transactions"("user_id", "type");

-- CreateIndex
CREATE INDEX "transactions_user_id_status_idx" ON "finance"."transactions"("user_id", "status");

-- CreateIndex
CREATE INDEX "transactions_user_id_category_idx" ON "finance"."transactions"("user_id", "category");

-- CreateIndex
CREATE INDEX "transactions_wallet_id_asset_symbol_currency_idx" ON "finance"."transactions"("wallet_id", "asset_symbol", "currency");

-- CreateIndex
CREATE INDEX "transactions_card_id_idx" ON "finance"."transactions"("card_id");

-- CreateIndex
CREATE INDEX "transactions_bank_account_id_idx" ON "finance"."transactions"("bank_account_id");

-- CreateIndex
CREATE INDEX "transaction_status_history_transaction_id_id_idx" ON "finance"."transaction_status_history"("transaction_id", "id");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "finance"."idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "finance"."transaction_status_history" ADD CONSTRAINT "transaction_status_history_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "finance"."transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
