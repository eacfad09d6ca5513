-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "ratelimit";

-- CreateTable
CREATE TABLE "ratelimit"."buckets" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_allowed" BOOLEAN NOT NULL,

    CONSTRAINT "buckets_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "buckets_expires_at_idx" ON "ratelimit"."buckets"("expires_at");
