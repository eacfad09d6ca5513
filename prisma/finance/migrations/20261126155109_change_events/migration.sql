-- Insights follow a user's change events (subgraphs/finance/changes/change-events.ts) instead of
-- being asked for by name: each insights job row becomes the user's change-event row, so one
-- still queued or running when this applies is told under its new kind and none is lost.
UPDATE "finance"."jobs"
SET "kind" = 'finance_changed', "key" = 'finance_changed:' || ("payload"->>'user_id')
WHERE "kind" = 'compute_insights';
