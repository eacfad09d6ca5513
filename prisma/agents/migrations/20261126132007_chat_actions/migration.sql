-- CreateTable
CREATE TABLE "agents"."chat_actions" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "body" JSONB,
    "summary" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "result_status" INTEGER,
    "result" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chat_actions_session_id_created_at_idx" ON "agents"."chat_actions"("session_id", "created_at");

-- AddForeignKey
ALTER TABLE "agents"."chat_actions" ADD CONSTRAINT "chat_actions_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agents"."chat_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
