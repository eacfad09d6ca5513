-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "internal";

-- CreateTable
CREATE TABLE "internal"."principal_uses" (
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "principal_uses_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE INDEX "principal_uses_expires_at_idx" ON "internal"."principal_uses"("expires_at");
