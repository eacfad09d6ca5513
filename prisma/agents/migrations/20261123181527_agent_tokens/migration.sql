-- CreateTable
CREATE TABLE "agents"."agent_tokens" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."agent_token_uses" (
    "id" BIGSERIAL NOT NULL,
    "token_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_token_uses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_tokens_token_hash_key" ON "agents"."agent_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "agent_tokens_user_id_created_at_idx" ON "agents"."agent_tokens"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_token_uses_token_id_at_idx" ON "agents"."agent_token_uses"("token_id", "at" DESC);

-- AddForeignKey
ALTER TABLE "agents"."agent_token_uses" ADD CONSTRAINT "agent_token_uses_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "agents"."agent_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
