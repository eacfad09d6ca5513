-- Cards: nothing created rows in finance.cards before this migration (no route did), so its new
-- NOT NULL columns need no defaults.

-- DropIndex
DROP INDEX "finance"."cards_user_id_idx";

-- AlterTable
ALTER TABLE "finance"."cards" ADD COLUMN     "allowed_mcc" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "blocked_mcc" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "currency" TEXT NOT NULL DEFAULT 'USD',
ADD COLUMN     "cvv_encrypted" TEXT NOT NULL,
ADD COLUMN     "daily_limit" DECIMAL(78,18),
ADD COLUMN     "expiry_month" INTEGER NOT NULL,
ADD COLUMN     "expiry_year" INTEGER NOT NULL,
ADD COLUMN     "funding_source_id" TEXT NOT NULL,
ADD COLUMN     "funding_source_type" TEXT NOT NULL,
ADD COLUMN     "issuer" TEXT NOT NULL,
ADD COLUMN     "issuer_card_id" TEXT NOT NULL,
ADD COLUMN     "monthly_limit" DECIMAL(78,18),
ADD COLUMN     "nickname" TEXT,
ADD COLUMN     "number_encrypted" TEXT NOT NULL,
ADD COLUMN     "shipping_address" JSONB,
ADD COLUMN     "single_transaction_limit" DECIMAL(78,18);

-- CreateTable
CREATE TABLE "finance"."card_status_history" (
    "id" SERIAL NOT NULL,
    "card_id" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."card_authorizations" (
    "id" TEXT NOT NULL,
    "card_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "amount" DECIMAL(78,18) NOT NULL,
    "currency" TEXT NOT NULL,
    "merchant_name" TEXT NOT NULL,
    "merchant_mcc" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "decline_reason" TEXT,
    "status" TEXT NOT NULL,
    "transaction_id" TEXT,
    "refund_transaction_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."card_secure_challenges" (
    "id" TEXT NOT NULL,
    "card_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_secure_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."card_reveals" (
    "id" TEXT NOT NULL,
    "card_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "challenge_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_reveals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "card_status_history_card_id_id_idx" ON "finance"."card_status_history"("card_id", "id");

-- CreateIndex
CREATE INDEX "card_authorizations_card_id_created_at_idx" ON "finance"."card_authorizations"("card_id", "created_at");

-- CreateIndex
CREATE INDEX "card_secure_challenges_card_id_created_at_idx" ON "finance"."card_secure_challenges"("card_id", "created_at");

-- CreateIndex
CREATE INDEX "card_reveals_card_id_created_at_idx" ON "finance"."card_reveals"("card_id", "created_at");

-- CreateIndex
CREATE INDEX "cards_user_id_created_at_idx" ON "finance"."cards"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "cards_funding_source_type_funding_source_id_idx" ON "finance"."cards"("funding_source_type", "funding_source_id");

-- AddForeignKey
ALTER TABLE "finance"."card_status_history" ADD CONSTRAINT "card_status_history_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "finance"."cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
