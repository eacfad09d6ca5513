-- Security review (low): PINT audiences are namespaced per organisation. An identifier is the
-- organisation's own (unique per organisation); mandates name "<organisation_id>:<identifier>",
-- so an organisation that registers another's identifier first captures nothing. Existing
-- audiences get their namespaced form. Mandates exchanged before keep the bare identifier they
-- were signed with (their digests cover it); they cannot be exchanged again, and removing the
-- audience still revokes them (subgraphs/identity/pints/audiences.ts).

-- DropIndex
DROP INDEX "identity"."pint_audiences_identifier_key";

-- DropIndex
DROP INDEX "identity"."pint_audiences_organisation_id_idx";

-- AlterTable
ALTER TABLE "identity"."pint_audiences" ADD COLUMN     "audience" TEXT;
UPDATE "identity"."pint_audiences" SET "audience" = "organisation_id" || ':' || "identifier";
ALTER TABLE "identity"."pint_audiences" ALTER COLUMN "audience" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "pint_audiences_audience_key" ON "identity"."pint_audiences"("audience");

-- CreateIndex
CREATE UNIQUE INDEX "pint_audiences_organisation_id_identifier_key" ON "identity"."pint_audiences"("organisation_id", "identifier");
