-- AlterTable
ALTER TABLE "agents"."agent_tasks" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cancel_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "error" TEXT,
ADD COLUMN     "finished_at" TIMESTAMPTZ(3),
ADD COLUMN     "input" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'strategy_run',
ADD COLUMN     "output" JSONB,
ADD COLUMN     "scheduled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "started_at" TIMESTAMPTZ(3),
ADD COLUMN     "user_strategy_id" TEXT;

-- CreateTable
CREATE TABLE "agents"."agent_task_status_history" (
    "id" SERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_task_status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."strategies" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "parameters_schema" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "strategies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."user_strategies" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "strategy_id" TEXT NOT NULL,
    "parameters" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_strategies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."user_strategy_status_history" (
    "id" SERIAL NOT NULL,
    "user_strategy_id" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_strategy_status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."jobs" (
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
    "rerun" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."notifications" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "dedupe_key" TEXT NOT NULL,
    "read_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_task_status_history_task_id_id_idx" ON "agents"."agent_task_status_history"("task_id", "id");

-- CreateIndex
CREATE INDEX "strategies_category_idx" ON "agents"."strategies"("category");

-- CreateIndex
CREATE INDEX "user_strategies_user_id_created_at_idx" ON "agents"."user_strategies"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "user_strategy_status_history_user_strategy_id_id_idx" ON "agents"."user_strategy_status_history"("user_strategy_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_key" ON "agents"."jobs"("key");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "agents"."jobs"("status", "run_at");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_dedupe_key_key" ON "agents"."notifications"("dedupe_key");

-- CreateIndex
CREATE INDEX "notifications_user_id_created_at_idx" ON "agents"."notifications"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_tasks_user_id_status_idx" ON "agents"."agent_tasks"("user_id", "status");

-- CreateIndex
CREATE INDEX "agent_tasks_user_strategy_id_idx" ON "agents"."agent_tasks"("user_strategy_id");

-- AddForeignKey
ALTER TABLE "agents"."agent_task_status_history" ADD CONSTRAINT "agent_task_status_history_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "agents"."agent_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents"."user_strategies" ADD CONSTRAINT "user_strategies_strategy_id_fkey" FOREIGN KEY ("strategy_id") REFERENCES "agents"."strategies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents"."user_strategy_status_history" ADD CONSTRAINT "user_strategy_status_history_user_strategy_id_fkey" FOREIGN KEY ("user_strategy_id") REFERENCES "agents"."user_strategies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The strategy catalogue (spec 2.10 categories); ids are stable, referenced by user strategies
INSERT INTO "agents"."strategies" ("id", "name", "description", "category", "parameters_schema") VALUES
    ('stg_round_up', 'Round-up savings', 'Rounds every card purchase up to the next whole unit (or 5 or 10) and moves the difference, times a multiplier, from the card''s funding wallet into a savings wallet.', 'savings', '{"type":"object","additionalProperties":false,"required":["savings_wallet_id"],"properties":{"savings_wallet_id":{"type":"integer","minimum":1,"maximum":2147483647,"description":"the wallet that receives the round-ups"},"round_to":{"type":"integer","enum":[1,5,10],"default":1,"description":"round up to the next multiple of this (in the card''s currency)"},"multiplier":{"type":"integer","minimum":1,"maximum":10,"default":1,"description":"move this many times the round-up"}}}'::jsonb),
    ('stg_recurring_buy', 'Recurring buy (DCA)', 'Buys a fixed amount of an asset from a wallet''s stablecoin on a schedule: dollar-cost averaging.', 'investing', '{"type":"object","additionalProperties":false,"required":["source_wallet_id","asset","amount","frequency"],"properties":{"source_wallet_id":{"type":"integer","minimum":1,"maximum":2147483647,"description":"the wallet that pays"},"pay_asset":{"type":"string","minLength":1,"maxLength":32,"default":"USDC","description":"the stablecoin it pays with"},"asset":{"type":"string","minLength":1,"maxLength":32,"description":"an asset symbol of the catalogue on the wallet''s chain, e.g. USDC"},"amount":{"type":"string","pattern":"^[0-9]{1,30}(\\.[0-9]{1,18})?$","description":"how much to spend each time, in the paying stablecoin"},"frequency":{"type":"string","enum":["daily","weekly","monthly"]}}}'::jsonb),
    ('stg_balance_sweep', 'Sweep above a threshold', 'Moves whatever a wallet holds of an asset above a threshold into a savings wallet.', 'savings', '{"type":"object","additionalProperties":false,"required":["source_wallet_id","savings_wallet_id","asset","threshold"],"properties":{"source_wallet_id":{"type":"integer","minimum":1,"maximum":2147483647,"description":"the wallet swept"},"savings_wallet_id":{"type":"integer","minimum":1,"maximum":2147483647,"description":"the wallet that receives the excess"},"asset":{"type":"string","minLength":1,"maxLength":32,"description":"an asset symbol of the catalogue on the wallet''s chain, e.g. USDC"},"threshold":{"type":"string","pattern":"^[0-9]{1,30}(\\.[0-9]{1,18})?$","description":"what stays in the source wallet"}}}'::jsonb),
    ('stg_spending_cap_alert', 'Spending cap alert', 'Notifies when spending in a category passes a cap within the week or month.', 'alerts', '{"type":"object","additionalProperties":false,"required":["category","cap","period"],"properties":{"category":{"type":"string","enum":["restaurants","groceries","transportation","entertainment","shopping","utilities","travel","health","other"]},"cap":{"type":"string","pattern":"^[0-9]{1,30}(\\.[0-9]{1,18})?$","description":"the cap in USD"},"period":{"type":"string","enum":["weekly","monthly"]}}}'::jsonb),
    ('stg_low_balance_alert', 'Low balance alert', 'Notifies when a wallet''s balance of an asset falls below a threshold.', 'alerts', '{"type":"object","additionalProperties":false,"required":["wallet_id","asset","threshold"],"properties":{"wallet_id":{"type":"integer","minimum":1,"maximum":2147483647,"description":"the wallet watched"},"asset":{"type":"string","minLength":1,"maxLength":32,"description":"an asset symbol of the catalogue on the wallet''s chain, e.g. USDC"},"threshold":{"type":"string","pattern":"^[0-9]{1,30}(\\.[0-9]{1,18})?$","description":"alert below this balance, in asset units"}}}'::jsonb);
