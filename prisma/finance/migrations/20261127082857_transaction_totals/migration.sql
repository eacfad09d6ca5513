-- The rollups over the user's whole history: the unfiltered feed's meta and total read a few rows
-- a user here instead of one per month (561 at 100,000 transactions over two years). Only the
-- count and the USD sum, which add up exactly; the date range comes from the transactions' index.
-- The rollups' trigger keeps them, in the same statement as the row it counts.

-- CreateTable
CREATE TABLE "finance"."transaction_totals" (
    "user_id" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" BIGINT NOT NULL,
    "usd" DECIMAL(78,18) NOT NULL,

    CONSTRAINT "transaction_totals_pkey" PRIMARY KEY ("user_id","direction","category","status")
);

-- Adds (sign 1) or removes (sign -1) one transaction's share of its monthly rollup row and of its
-- total row. A removal that empties a row deletes it; one that took away a month's earliest or
-- latest timestamp reads the new extremes from the group's remaining rows (on
-- transactions_feed_meta_idx). Row triggers run after the whole statement, so a statement moving
-- many rows may find the group already empty in the table while its count has not reached zero:
-- the extremes then stay until it does.
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
  UPDATE "finance"."transaction_totals" SET "n" = "n" - 1, "usd" = "usd" - coalesce(t."amount_usd", 0)
  WHERE "user_id" = t."user_id" AND "direction" = t."direction" AND "category" = c AND "status" = t."status"
  RETURNING "n" INTO left_over;
  IF left_over <= 0 THEN
    DELETE FROM "finance"."transaction_totals" WHERE "user_id" = t."user_id" AND "direction" = t."direction" AND "category" = c AND "status" = t."status";
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

-- the transactions recorded before the totals existed
INSERT INTO "finance"."transaction_totals" ("user_id", "direction", "category", "status", "n", "usd")
SELECT "user_id", "direction", coalesce("category", ''), "status", count(*), coalesce(sum("amount_usd"), 0)
FROM "finance"."transactions"
GROUP BY 1, 2, 3, 4;
