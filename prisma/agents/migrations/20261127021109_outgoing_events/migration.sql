-- CreateTable
CREATE TABLE "agents"."outgoing_events" (
    "id" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "relayed_at" TIMESTAMPTZ(3),

    CONSTRAINT "outgoing_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "outgoing_events_event_id_key" ON "agents"."outgoing_events"("event_id");

-- CreateIndex
CREATE INDEX "outgoing_events_relayed_at_id_idx" ON "agents"."outgoing_events"("relayed_at", "id");
