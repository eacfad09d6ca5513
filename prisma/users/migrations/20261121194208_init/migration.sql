-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "users";

-- CreateTable
CREATE TABLE "users"."users" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "auth_provider" TEXT NOT NULL,
    "auth_issuer" TEXT NOT NULL,
    "auth_provider_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "primary_eoa_address" TEXT NOT NULL,
    "primary_chain_id" INTEGER NOT NULL,
    "phone_number" TEXT,
    "phone_verified_at" TIMESTAMPTZ(3),
    "debug" BOOLEAN,
    "onboarding_safe_mode" TEXT,
    "onboarding_skipped_steps" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."wallets" (
    "id" SERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'wallet',
    "address" TEXT,
    "chain_id" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "nickname" TEXT,
    "safe_creation_status" TEXT,
    "safe_creation_event_id" TEXT,
    "safe_deployment_tx_hash" TEXT,
    "signer_of_wallet_id" INTEGER,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."status_history" (
    "id" SERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "event_id" TEXT,
    "ignored" BOOLEAN NOT NULL DEFAULT false,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."personal_access_tokens" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "personal_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."kyc_applicants" (
    "user_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "applicant_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kyc_applicants_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "users"."phone_verifications" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "verified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phone_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users"."siwe_nonces" (
    "nonce" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "siwe_nonces_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "users"."jobs" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 8,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_environment_id_auth_issuer_auth_provider_id_key" ON "users"."users"("environment_id", "auth_issuer", "auth_provider_id");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_safe_creation_event_id_key" ON "users"."wallets"("safe_creation_event_id");

-- CreateIndex
CREATE INDEX "wallets_user_id_deleted_at_idx" ON "users"."wallets"("user_id", "deleted_at");

-- CreateIndex
CREATE UNIQUE INDEX "status_history_event_id_key" ON "users"."status_history"("event_id");

-- CreateIndex
CREATE INDEX "status_history_user_id_changed_at_idx" ON "users"."status_history"("user_id", "changed_at");

-- CreateIndex
CREATE UNIQUE INDEX "personal_access_tokens_token_hash_key" ON "users"."personal_access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "personal_access_tokens_user_id_idx" ON "users"."personal_access_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "kyc_applicants_applicant_id_key" ON "users"."kyc_applicants"("applicant_id");

-- CreateIndex
CREATE INDEX "phone_verifications_user_id_created_at_idx" ON "users"."phone_verifications"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_key" ON "users"."jobs"("key");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "users"."jobs"("status", "run_at");

-- AddForeignKey
ALTER TABLE "users"."wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."status_history" ADD CONSTRAINT "status_history_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."kyc_applicants" ADD CONSTRAINT "kyc_applicants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users"."phone_verifications" ADD CONSTRAINT "phone_verifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"."users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
