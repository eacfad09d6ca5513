-- A removal takes its monthly rollup row before its total row, as an addition does: with the
-- total first, a status move and a new transaction of the same user, month and group in two
-- concurrent transactions could each hold the row the other waits for (a deadlock).
CREATE OR REPLACE FUNCTION "finance"."transaction_rollup_apply"(t "finance"."transactions", sign INTEGER) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  m TIMESTAMPTZ := date_trunc('month', t."timestamp", 'UTC');
  c TEXT := coalesce(t."category", '');
  r "finance"."transaction_rollups";
  left_over BIGINT;
BEGIN
  IF sign > 0 THEN
    INSERT INTO "finance"."transaction_rollups" AS x ("user_id", "month", "direction", "category", "status", "n", "earliest", "latest", "usd")
    VALUES (t."user_id", m, t."direction", c, t."status", 1, t."timestamp", t."timestamp", coalesce(t."amount_usd", 0))
    ON CONFLICT ("user_id", "month", "direction", "category", "status") DO UPDATE SET
      "n" = x."n" + 1, "earliest" = least(x."earliest", EXCLUDED."earliest"), "latest" = greatest(x."latest", EXCLUDED."latest"), "usd" = x."usd" + EXCLUDED."usd";
    INSERT INTO "finance"."transaction_totals" AS x ("user_id", "direction", "category", "status", "n", "usd")
    VALUES (t."user_id", t."direction", c, t."status", 1, coalesce(t."amount_usd", 0))
    ON CONFLICT ("user_id", "direction", "category", "status") DO UPDATE SET "n" = x."n" + 1, "usd" = x."usd" + EXCLUDED."usd";
    RETURN;
  END IF;
  UPDATE "finance"."transaction_rollups" SET "n" = "n" - 1, "usd" = "usd" - coalesce(t."amount_usd", 0)
  WHERE "user_id" = t."user_id" AND "month" = m AND "direction" = t."direction" AND "category" = c AND "status" = t."status"
  RETURNING * INTO r;
  IF r."n" <= 0 THEN
    DELETE FROM "finance"."transaction_rollups"
    WHERE "user_id" = t."user_id" AND "month" = m AND "direction" = t."direction" AND "category" = c AND "status" = t."status";
  ELSIF r."earliest" = t."timestamp" OR r."latest" = t."timestamp" THEN
    UPDATE "finance"."transaction_rollups" SET ("earliest", "latest") = (
      SELECT coalesce(min(x."timestamp"), r."earliest"), coalesce(max(x."timestamp"), r."latest") FROM "finance"."transactions" x
      WHERE x."user_id" = t."user_id" AND x."direction" = t."direction" AND coalesce(x."category", '') = c AND x."status" = t."status"
        AND x."timestamp" >= m AND x."timestamp" < m + interval '1 month' AND x."id" <> t."id")
    WHERE "user_id" = t."user_id" AND "month" = m AND "direction" = t."direction" AND "category" = c AND "status" = t."status";
  END IF;
  UPDATE "finance"."transaction_totals" SET "n" = "n" - 1, "usd" = "usd" - coalesce(t."amount_usd", 0)
  WHERE "user_id" = t."user_id" AND "direction" = t."direction" AND "category" = c AND "status" = t."status"
  RETURNING "n" INTO left_over;
  IF left_over <= 0 THEN
    DELETE FROM "finance"."transaction_totals" WHERE "user_id" = t."user_id" AND "direction" = t."direction" AND "category" = c AND "status" = t."status";
  END IF;
END $$;
