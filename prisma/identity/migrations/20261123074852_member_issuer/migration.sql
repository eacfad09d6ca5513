-- Security review item 8: membership is keyed on the dashboard token's issuer and subject. Rows
-- from before keep issuer NULL, which matches no token; at start the identity service attributes
-- them to the DASHBOARD_AUTH issuer when exactly one is configured, and IDENTITY_BOOTSTRAP members
-- name theirs (subgraphs/identity/organisations/member-issuers.ts).
-- DropIndex
DROP INDEX "identity"."members_organisation_id_sub_key";

-- DropIndex
DROP INDEX "identity"."members_sub_idx";

-- AlterTable
ALTER TABLE "identity"."members" ADD COLUMN     "issuer" TEXT;

-- CreateIndex
CREATE INDEX "members_issuer_sub_idx" ON "identity"."members"("issuer", "sub");

-- CreateIndex
CREATE UNIQUE INDEX "members_organisation_id_issuer_sub_key" ON "identity"."members"("organisation_id", "issuer", "sub");
