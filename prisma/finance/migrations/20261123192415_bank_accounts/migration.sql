-- CreateTable
CREATE TABLE "finance"."bank_connections" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "institution_id" TEXT NOT NULL,
    "institution_name" TEXT NOT NULL,
    "public_token_id" TEXT NOT NULL,
    "access_token_sealed" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finance"."bank_accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "connection_id" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "account_type" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "mask" TEXT NOT NULL,
    "balance" DECIMAL(38,2),
    "unlinked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "bank_connections_public_token_id_key" ON "finance"."bank_connections"("public_token_id");

-- CreateIndex
CREATE INDEX "bank_connections_user_id_idx" ON "finance"."bank_connections"("user_id");

-- CreateIndex
CREATE INDEX "bank_accounts_user_id_created_at_idx" ON "finance"."bank_accounts"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "bank_accounts_connection_id_provider_account_id_key" ON "finance"."bank_accounts"("connection_id", "provider_account_id");

-- AddForeignKey
ALTER TABLE "finance"."bank_accounts" ADD CONSTRAINT "bank_accounts_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "finance"."bank_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
