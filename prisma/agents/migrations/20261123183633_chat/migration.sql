-- CreateTable
CREATE TABLE "agents"."chat_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."chat_messages" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "content" TEXT,
    "tool_call_id" TEXT,
    "tool_name" TEXT,
    "tool_arguments" JSONB,
    "tool_result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chat_sessions_user_id_updated_at_idx" ON "agents"."chat_sessions"("user_id", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "chat_messages_session_id_seq_key" ON "agents"."chat_messages"("session_id", "seq");

-- AddForeignKey
ALTER TABLE "agents"."chat_messages" ADD CONSTRAINT "chat_messages_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agents"."chat_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
