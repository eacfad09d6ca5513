-- CreateIndex
CREATE INDEX "users_organisation_created_at_idx" ON "users"."users"("created_at") WHERE (environment_id <> 'default');
