-- Data migration (spec 5.2.4, 9): API keys minted before the dotted scope catalogue carry legacy
-- scope names. Each is rewritten with LEGACY_SCOPES (subgraphs/identity/keys/scopes.ts), in its
-- original order without duplicates. A key keeps its partition; one without a valid partition
-- gets it from the mapped scopes (server for idsvc.*, public for rpc.*). No schema change.
WITH "legacy" ("old_name", "new_name") AS (
    VALUES
        ('lookup', 'idsvc.lookup'),
        ('get_details', 'idsvc.get_details'),
        ('get_kyc', 'idsvc.get_kyc'),
        ('token_exchange', 'idsvc.token_exchange'),
        ('get_pints', 'idsvc.get_pints'),
        ('rpc', 'rpc.invoke')
),
"mapped" AS (
    SELECT "k"."id", "m"."scopes"
    FROM "identity"."api_keys" AS "k"
    CROSS JOIN LATERAL (
        SELECT array_agg("s"."scope" ORDER BY "s"."position") AS "scopes"
        FROM (
            SELECT COALESCE("l"."new_name", "u"."scope") AS "scope", min("u"."position") AS "position"
            FROM unnest("k"."scopes") WITH ORDINALITY AS "u" ("scope", "position")
            LEFT JOIN "legacy" AS "l" ON "l"."old_name" = "u"."scope"
            GROUP BY 1
        ) AS "s"
    ) AS "m"
    WHERE "k"."scopes" && ARRAY(SELECT "old_name" FROM "legacy")
)
UPDATE "identity"."api_keys" AS "k"
SET "scopes" = "mapped"."scopes",
    "partition" = CASE
        WHEN "k"."partition" IN ('server', 'public') THEN "k"."partition"
        WHEN NOT EXISTS (SELECT 1 FROM unnest("mapped"."scopes") AS "s" WHERE "s" NOT LIKE 'idsvc.%') THEN 'server'
        WHEN NOT EXISTS (SELECT 1 FROM unnest("mapped"."scopes") AS "s" WHERE "s" NOT LIKE 'rpc.%') THEN 'public'
        ELSE "k"."partition"
    END
FROM "mapped"
WHERE "k"."id" = "mapped"."id";
