-- CreateTable
CREATE TABLE "identity"."pint_audiences" (
    "id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "name" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pint_audiences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity"."pint_mandates" (
    "id" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "nonce" TEXT NOT NULL,
    "signer" TEXT NOT NULL,
    "signer_role" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "user_id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" TEXT,
    "revoked_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pint_mandates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pint_audiences_identifier_key" ON "identity"."pint_audiences"("identifier");

-- CreateIndex
CREATE INDEX "pint_audiences_organisation_id_idx" ON "identity"."pint_audiences"("organisation_id");

-- CreateIndex
CREATE UNIQUE INDEX "pint_mandates_digest_key" ON "identity"."pint_mandates"("digest");

-- CreateIndex
CREATE INDEX "pint_mandates_user_id_created_at_idx" ON "identity"."pint_mandates"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "pint_mandates_organisation_id_created_at_idx" ON "identity"."pint_mandates"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "pint_mandates_audience_idx" ON "identity"."pint_mandates"("audience");

-- CreateIndex
CREATE UNIQUE INDEX "pint_mandates_wallet_chain_id_nonce_key" ON "identity"."pint_mandates"("wallet", "chain_id", "nonce");
