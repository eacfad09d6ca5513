-- The feed meta's running totals: a trigger keeps one row per user, UTC month and filter
-- dimensions (direction, category, status) for every write to finance.transactions, so
-- meta over a period reads a few hundred rollup rows plus the rows of its partial edge months
-- instead of every transaction (transaction-rollups.ts).

-- CreateTable
CREATE TABLE "finance"."transaction_rollups" (
    "user_id" TEXT NOT NULL,
    "month" TIMESTAMPTZ(3) NOT NULL,
    "direction" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" BIGINT NOT NULL,
    "earliest" TIMESTAMPTZ(3) NOT NULL,
    "latest" TIMESTAMPTZ(3) NOT NULL,
    "usd" DECIMAL(78,18) NOT NULL,

    CONSTRAINT "transaction_rollups_pkey" PRIMARY KEY ("user_id","month","direction","category","status")
);

-- Adds (sign 1) or removes (sign -1) one transaction's share of its rollup row. A removal that
-- empties the row deletes it; one that took away its earliest or latest timestamp reads the
-- new extremes from the group's remaining rows (on transactions_feed_meta_idx). Row triggers run
-- after the whole statement, so a statement moving many rows may find the group already empty
-- in the table while its count has not reached zero: the extremes then stay until it does.
CREATE FUNCTION "finance"."transaction_rollup_apply"(t "finance"."transactions", sign INTEGER) RETURNS VOID LANGUAGE plpgsql AS $$
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

CREATE FUNCTION "finance"."transactions_rollup"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."user_id" = OLD."user_id" AND NEW."timestamp" = OLD."timestamp" AND NEW."direction" = OLD."direction"
     AND NEW."category" IS NOT DISTINCT FROM OLD."category" AND NEW."status" = OLD."status"
     AND NEW."amount_usd" IS NOT DISTINCT FROM OLD."amount_usd" THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM "finance"."transaction_rollup_apply"(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM "finance"."transaction_rollup_apply"(NEW, 1); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "transactions_rollup" AFTER INSERT OR UPDATE OR DELETE ON "finance"."transactions"
  FOR EACH ROW EXECUTE FUNCTION "finance"."transactions_rollup"();

-- the transactions recorded before the trigger existed
INSERT INTO "finance"."transaction_rollups" ("user_id", "month", "direction", "category", "status", "n", "earliest", "latest", "usd")
SELECT "user_id", date_trunc('month', "timestamp", 'UTC'), "direction", coalesce("category", ''), "status", count(*), min("timestamp"), max("timestamp"), coalesce(sum("amount_usd"), 0)
FROM "finance"."transactions"
GROUP BY 1, 2, 3, 4, 5;
