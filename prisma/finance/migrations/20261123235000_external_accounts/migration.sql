-- AlterTable
ALTER TABLE "finance"."transactions" ADD COLUMN     "external_account_id" TEXT;

-- CreateTable
CREATE TABLE "finance"."external_accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "external_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "external_accounts_user_id_idx" ON "finance"."external_accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_external_account_id_provider_transaction_id_key" ON "finance"."transactions"("external_account_id", "provider_transaction_id");
