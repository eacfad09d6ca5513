-- DropIndex
DROP INDEX "finance"."transactions_bank_account_id_idx";

-- AlterTable
ALTER TABLE "finance"."bank_connections" ADD COLUMN     "provider_item_id" TEXT,
ADD COLUMN     "sync_cursor" TEXT,
ADD COLUMN     "synced_at" TIMESTAMPTZ(3);
-- connections linked before item ids were kept: their own id stands in (unique, never a provider's)
UPDATE "finance"."bank_connections" SET "provider_item_id" = "id";
ALTER TABLE "finance"."bank_connections" ALTER COLUMN "provider_item_id" SET NOT NULL;

-- AlterTable
ALTER TABLE "finance"."transactions" ADD COLUMN     "provider_transaction_id" TEXT;

-- CreateTable
CREATE TABLE "finance"."banking_provider_events" (
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "banking_provider_events_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "finance"."ramp_quotes" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "bank_account_id" TEXT NOT NULL,
    "wallet_id" INTEGER NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "asset_symbol" TEXT NOT NULL,
    "asset_decimals" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "fiat_amount" DECIMAL(38,2) NOT NULL,
    "asset_amount" DECIMAL(78,18) NOT NULL,
    "rate" DECIMAL(78,18) NOT NULL,
    "fee" DECIMAL(38,2) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ramp_quotes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."ramps" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_ramp_id" TEXT NOT NULL,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ramps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ramp_quotes_user_id_created_at_idx" ON "finance"."ramp_quotes"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ramps_quote_id_key" ON "finance"."ramps"("quote_id");

-- CreateIndex
CREATE UNIQUE INDEX "ramps_transaction_id_key" ON "finance"."ramps"("transaction_id");

-- CreateIndex
CREATE UNIQUE INDEX "ramps_provider_ramp_id_key" ON "finance"."ramps"("provider_ramp_id");

-- CreateIndex
CREATE INDEX "ramps_user_id_created_at_idx" ON "finance"."ramps"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "bank_connections_provider_item_id_key" ON "finance"."bank_connections"("provider_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_bank_account_id_provider_transaction_id_key" ON "finance"."transactions"("bank_account_id", "provider_transaction_id");

-- AddForeignKey
ALTER TABLE "finance"."ramps" ADD CONSTRAINT "ramps_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "finance"."ramp_quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
