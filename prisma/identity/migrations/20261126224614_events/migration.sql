-- CreateTable
CREATE TABLE "identity"."events" (
    "id" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "env_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "api_version" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity"."jobs" (
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

-- CreateIndex
CREATE UNIQUE INDEX "events_event_id_key" ON "identity"."events"("event_id");

-- CreateIndex
CREATE INDEX "events_org_id_created_at_idx" ON "identity"."events"("org_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_key" ON "identity"."jobs"("key");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "identity"."jobs"("status", "run_at");
