-- AlterTable
ALTER TABLE "agents"."agent_tasks" ADD COLUMN     "cause" JSONB;

-- AlterTable
ALTER TABLE "agents"."user_rules" ADD COLUMN     "last_error" TEXT;
