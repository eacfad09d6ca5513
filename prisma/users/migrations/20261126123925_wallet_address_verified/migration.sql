-- AlterTable
ALTER TABLE "users"."wallets" ADD COLUMN     "address_verified_at" TIMESTAMPTZ(3);

-- Every wallet registered before this migration proved its address (registration required the
-- proof then), so they count as proven from their creation.
UPDATE "users"."wallets" SET "address_verified_at" = "created_at";
