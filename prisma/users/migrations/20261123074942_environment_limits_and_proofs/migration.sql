-- DropIndex
DROP INDEX "users"."pregenerated_wallets_provider_wallet_id_key";

-- AlterTable: rows registered before proofs were required stay unproven (proven_at NULL)
ALTER TABLE "users"."pregenerated_wallets" ADD COLUMN     "proven_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "users"."safe_deployment_requests" (
    "event_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "wallet_id" INTEGER NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "safe_deployment_requests_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE INDEX "safe_deployment_requests_environment_id_created_at_idx" ON "users"."safe_deployment_requests"("environment_id", "created_at");

-- CreateIndex
CREATE INDEX "pregenerated_wallets_provider_wallet_id_idx" ON "users"."pregenerated_wallets"("provider_wallet_id");

-- CreateIndex
CREATE INDEX "users_environment_id_created_at_idx" ON "users"."users"("environment_id", "created_at");

-- Before this index one user could have two deployments under way on one chain: keep the newest,
-- mark the older ones failed (their jobs then find them settled and stop; the user may retry).
UPDATE "users"."wallets" AS "w" SET "safe_creation_status" = 'failed'
WHERE "w"."type" = 'Safe' AND "w"."role" = 'wallet' AND "w"."safe_creation_status" = 'processing' AND "w"."deleted_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "users"."wallets" AS "n"
    WHERE "n"."user_id" = "w"."user_id" AND "n"."chain_id" = "w"."chain_id" AND "n"."id" > "w"."id"
      AND "n"."type" = 'Safe' AND "n"."role" = 'wallet' AND "n"."safe_creation_status" = 'processing' AND "n"."deleted_at" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "wallets_one_deploying_safe_per_chain" ON "users"."wallets"("user_id", "chain_id") WHERE (type = 'Safe' AND role = 'wallet' AND safe_creation_status = 'processing' AND deleted_at IS NULL);
