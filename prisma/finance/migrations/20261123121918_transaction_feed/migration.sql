-- AlterTable
ALTER TABLE "finance"."transactions" ADD COLUMN     "note" TEXT;

-- CreateTable
CREATE TABLE "finance"."merchant_category_rules" (
    "user_id" TEXT NOT NULL,
    "merchant_key" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchant_category_rules_pkey" PRIMARY KEY ("user_id","merchant_key")
);
