-- AlterTable
ALTER TABLE "agents"."agent_tasks" ADD COLUMN     "dedupe_key" TEXT;

-- AlterTable
ALTER TABLE "agents"."user_strategies" ADD COLUMN     "next_run_at" TIMESTAMPTZ(3),
ADD COLUMN     "state" JSONB;

-- CreateTable
CREATE TABLE "agents"."processed_ledger_events" (
    "event_id" BIGINT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_ledger_events_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "agents"."user_rules" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "trigger_type" TEXT NOT NULL,
    "trigger" JSONB NOT NULL,
    "action_type" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "created_with_scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "state" JSONB,
    "next_run_at" TIMESTAMPTZ(3),
    "last_fired_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."user_rule_executions" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "task_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_rule_executions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_rules_user_id_created_at_idx" ON "agents"."user_rules"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "user_rules_trigger_type_enabled_next_run_at_idx" ON "agents"."user_rules"("trigger_type", "enabled", "next_run_at");

-- CreateIndex
CREATE INDEX "user_rule_executions_rule_id_created_at_idx" ON "agents"."user_rule_executions"("rule_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "user_rule_executions_rule_id_event_key_key" ON "agents"."user_rule_executions"("rule_id", "event_key");

-- CreateIndex
CREATE UNIQUE INDEX "agent_tasks_dedupe_key_key" ON "agents"."agent_tasks"("dedupe_key");

-- AddForeignKey
ALTER TABLE "agents"."user_rule_executions" ADD CONSTRAINT "user_rule_executions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "agents"."user_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
