-- AlterTable
ALTER TABLE "agents"."agent_tokens" ADD COLUMN     "wallet_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[];
