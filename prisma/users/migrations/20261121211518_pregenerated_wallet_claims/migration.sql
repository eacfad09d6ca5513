-- CreateTable
CREATE TABLE "users"."pregenerated_wallets" (
    "id" SERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "provider_wallet_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "address_key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pregenerated_wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."wallet_claims" (
    "event_id" TEXT NOT NULL,
    "pregenerated_wallet_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "provider_wallet_id" TEXT NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "wallet_type" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL,
    "event_created_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_claims_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pregenerated_wallets_provider_wallet_id_key" ON "users"."pregenerated_wallets"("provider_wallet_id");

-- CreateIndex
CREATE UNIQUE INDEX "pregenerated_wallets_address_key_key" ON "users"."pregenerated_wallets"("address_key");

-- CreateIndex
CREATE INDEX "pregenerated_wallets_user_id_idx" ON "users"."pregenerated_wallets"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "wallet_claims_pregenerated_wallet_id_key" ON "users"."wallet_claims"("pregenerated_wallet_id");

-- CreateIndex
CREATE INDEX "wallet_claims_user_id_idx" ON "users"."wallet_claims"("user_id");

-- AddForeignKey
ALTER TABLE "users"."pregenerated_wallets" ADD CONSTRAINT "pregenerated_wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."wallet_claims" ADD CONSTRAINT "wallet_claims_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."wallet_claims" ADD CONSTRAINT "wallet_claims_pregenerated_wallet_id_fkey" FOREIGN KEY ("pregenerated_wallet_id") REFERENCES "users"."pregenerated_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
