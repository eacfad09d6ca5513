-- AlterTable
ALTER TABLE "users"."jobs" ADD COLUMN     "rerun" BOOLEAN NOT NULL DEFAULT false;
