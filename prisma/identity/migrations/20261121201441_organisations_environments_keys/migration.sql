-- CreateTable
CREATE TABLE "identity"."members" (
    "id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "sub" TEXT NOT NULL,
    "email" TEXT,
    "name" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "role" TEXT NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity"."environments" (
    "id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'test',
    "auth_providers" JSONB NOT NULL DEFAULT '[]',
    "auth_is_active" BOOLEAN NOT NULL DEFAULT true,
    "auth_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "features" JSONB NOT NULL DEFAULT '[]',
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity"."api_keys" (
    "id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "partition" TEXT NOT NULL,
    "scopes" TEXT[],
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_last_four" TEXT NOT NULL,
    "created_by" TEXT,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "members_sub_idx" ON "identity"."members"("sub");

-- CreateIndex
CREATE UNIQUE INDEX "members_organisation_id_sub_key" ON "identity"."members"("organisation_id", "sub");

-- CreateIndex
CREATE INDEX "environments_organisation_id_idx" ON "identity"."environments"("organisation_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "identity"."api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organisation_id_created_at_idx" ON "identity"."api_keys"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "api_keys_environment_id_idx" ON "identity"."api_keys"("environment_id");
