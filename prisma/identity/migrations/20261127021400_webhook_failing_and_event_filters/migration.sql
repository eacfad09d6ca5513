-- AlterTable
ALTER TABLE "identity"."webhook_endpoints" ADD COLUMN     "failing_since" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "events_org_id_resource_id_idx" ON "identity"."events"("org_id", "resource_id");
