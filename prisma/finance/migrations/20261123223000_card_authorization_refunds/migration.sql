-- AlterTable
ALTER TABLE "finance"."card_authorizations" DROP COLUMN "refund_transaction_id",
ADD COLUMN     "refund_transaction_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "refunded_amount" DECIMAL(78,18) NOT NULL DEFAULT 0;
