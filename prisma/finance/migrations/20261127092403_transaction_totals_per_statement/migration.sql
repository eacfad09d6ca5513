-- finance.transaction_totals are kept once per statement, from its transition tables, instead of
-- once per row: a statement inserting many transactions of one user (an import, the bench's seed)
-- updated the same few total rows once per row, each update a new row version its next one had
-- to walk past (100,000 rows took minutes). The monthly rollups keep their row trigger. The
-- statement trigger runs after the row triggers, so a statement takes its monthly rows before
-- its total rows, as transaction_totals_lock_order made the row trigger do; total rows are
-- written in key order.

-- the rollups' row function as before the totals (migration transaction_rollups)
CREATE OR REPLACE FUNCTION "finance"."transaction_rollup_apply"(t "finance"."transactions", sign INTEGER) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  m TIMESTAMPTZ := date_trunc('month', t."timestamp", 'UTC');
  c TEXT := coalesce(t."category", '');
  r "finance"."transaction_rollups";
BEGIN
  IF sign > 0 THEN
    INSERT INTO "finance"."transaction_rollups" AS x ("user_id", "month", "direction", "category", "status", "n", "earliest", "latest", "usd")
    VALUES (t."user_id", m, t."direction", c, t."status", 1, t."timestamp", t."timestamp", coalesce(t."amount_usd", 0))
    ON CONFLICT ("user_id", "month", "direction", "category", "status") DO UPDATE SET
      "n" = x."n" + 1, "earliest" = least(x."earliest", EXCLUDED."earliest"), "latest" = greatest(x."latest", EXCLUDED."latest"), "usd" = x."usd" + EXCLUDED."usd";
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
END $$;

-- Adds each group's count and USD sum of the statement's new rows, takes away its old rows' (an
-- INSERT has no old rows, a DELETE no new ones: each reads only the tables it has).
CREATE FUNCTION "finance"."transactions_totals"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "finance"."transaction_totals" AS x ("user_id", "direction", "category", "status", "n", "usd")
    SELECT "user_id", "direction", coalesce("category", ''), "status", count(*), coalesce(sum("amount_usd"), 0) FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("user_id", "direction", "category", "status") DO UPDATE SET "n" = x."n" + EXCLUDED."n", "usd" = x."usd" + EXCLUDED."usd";
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "finance"."transaction_totals" AS x ("user_id", "direction", "category", "status", "n", "usd")
    SELECT "user_id", "direction", "category", "status", sum("n"), sum("usd") FROM (
      SELECT "user_id", "direction", coalesce("category", '') AS "category", "status", 1 AS "n", coalesce("amount_usd", 0) AS "usd" FROM new_rows
      UNION ALL SELECT "user_id", "direction", coalesce("category", ''), "status", -1, -coalesce("amount_usd", 0) FROM old_rows) changes
    GROUP BY 1, 2, 3, 4 HAVING sum("n") <> 0 OR sum("usd") <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("user_id", "direction", "category", "status") DO UPDATE SET "n" = x."n" + EXCLUDED."n", "usd" = x."usd" + EXCLUDED."usd";
  ELSE
    UPDATE "finance"."transaction_totals" x SET "n" = x."n" - o."n", "usd" = x."usd" - o."usd"
    FROM (SELECT "user_id", "direction", coalesce("category", '') AS "category", "status", count(*) AS "n", coalesce(sum("amount_usd"), 0) AS "usd" FROM old_rows GROUP BY 1, 2, 3, 4) o
    WHERE (x."user_id", x."direction", x."category", x."status") = (o."user_id", o."direction", o."category", o."status");
  END IF;
  DELETE FROM "finance"."transaction_totals" WHERE "n" <= 0 AND "user_id" IN (SELECT "user_id" FROM old_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER "transactions_totals_insert" AFTER INSERT ON "finance"."transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transactions_totals"();
CREATE TRIGGER "transactions_totals_update" AFTER UPDATE ON "finance"."transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transactions_totals"();
CREATE TRIGGER "transactions_totals_delete" AFTER DELETE ON "finance"."transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "finance"."transactions_totals"();
