-- CreateTable
CREATE TABLE "finance"."asset_contracts" (
    "asset_id" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "address" TEXT,

    CONSTRAINT "asset_contracts_pkey" PRIMARY KEY ("asset_id","chain_id")
);

-- Backfill: the former one-row-per-chain assets become one asset (the lowest id per symbol) with a
-- contract row per chain.
INSERT INTO "finance"."asset_contracts" ("asset_id", "chain_id", "address")
SELECT DISTINCT ON (keep."id", a."chain_id") keep."id", a."chain_id", a."contract_address"
FROM "finance"."assets" a
JOIN (SELECT "symbol", min("id") AS "id" FROM "finance"."assets" GROUP BY "symbol") keep ON keep."symbol" = a."symbol"
WHERE a."chain_id" IS NOT NULL;

DELETE FROM "finance"."assets" a
USING (SELECT "symbol", min("id") AS "id" FROM "finance"."assets" GROUP BY "symbol") keep
WHERE a."symbol" = keep."symbol" AND a."id" <> keep."id";

-- AlterTable
ALTER TABLE "finance"."assets" DROP COLUMN "chain_id",
DROP COLUMN "contract_address";

-- CreateIndex
CREATE INDEX "asset_contracts_chain_id_idx" ON "finance"."asset_contracts"("chain_id");

-- CreateIndex
CREATE UNIQUE INDEX "assets_symbol_key" ON "finance"."assets"("symbol");

-- AddForeignKey
ALTER TABLE "finance"."asset_contracts" ADD CONSTRAINT "asset_contracts_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "finance"."assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Seed: the catalogue (idempotent; a symbol already present keeps its row). Contract addresses are
-- the issuers' canonical deployments (EIP-55); a null address is the chain's native coin. Chains
-- without a canonical deployment we could vouch for are left out rather than guessed.
INSERT INTO "finance"."assets" ("id", "asset_type", "symbol", "name", "decimals") VALUES
    ('ast_eth',  'crypto', 'ETH',  'Ether',            18),
    ('ast_weth', 'crypto', 'WETH', 'Wrapped Ether',    18),
    ('ast_wbtc', 'crypto', 'WBTC', 'Wrapped BTC',      8),
    ('ast_usdc', 'crypto', 'USDC', 'USD Coin',         6),
    ('ast_usdt', 'crypto', 'USDT', 'Tether USD',       6),
    ('ast_dai',  'crypto', 'DAI',  'Dai Stablecoin',   18),
    ('ast_eurc', 'crypto', 'EURC', 'EURC',             6),
    ('ast_usd',  'fiat',   'USD',  'US Dollar',        2),
    ('ast_eur',  'fiat',   'EUR',  'Euro',             2),
    ('ast_gbp',  'fiat',   'GBP',  'Pound Sterling',   2)
ON CONFLICT DO NOTHING;

INSERT INTO "finance"."asset_contracts" ("asset_id", "chain_id", "address")
SELECT a."id", v."chain_id", v."address"
FROM (VALUES
    ('ETH',  1,        NULL),
    ('ETH',  10,       NULL),
    ('ETH',  8453,     NULL),
    ('ETH',  42161,    NULL),
    ('ETH',  11155111, NULL),
    ('ETH',  84532,    NULL),
    ('WETH', 1,        '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'),
    ('WETH', 10,       '0x4200000000000000000000000000000000000006'),
    ('WETH', 8453,     '0x4200000000000000000000000000000000000006'),
    ('WETH', 42161,    '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1'),
    ('WETH', 137,      '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619'),
    ('WETH', 84532,    '0x4200000000000000000000000000000000000006'),
    ('WBTC', 1,        '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599'),
    ('WBTC', 10,       '0x68f180fcCe6836688e9084f035309E29Bf0A2095'),
    ('WBTC', 42161,    '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f'),
    ('WBTC', 137,      '0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6'),
    ('USDC', 1,        '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
    ('USDC', 10,       '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'),
    ('USDC', 137,      '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
    ('USDC', 8453,     '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
    ('USDC', 42161,    '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
    ('USDC', 11155111, '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238'),
    ('USDC', 84532,    '0x036CbD53842c5426634e7929541eC2318f3dCF7e'),
    ('USDT', 1,        '0xdAC17F958D2ee523a2206206994597C13D831ec7'),
    ('USDT', 10,       '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58'),
    ('USDT', 137,      '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
    ('USDT', 42161,    '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'),
    ('DAI',  1,        '0x6B175474E89094C44Da98b954EedeAC495271d0F'),
    ('DAI',  10,       '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1'),
    ('DAI',  137,      '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063'),
    ('DAI',  8453,     '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb'),
    ('DAI',  42161,    '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1'),
    ('EURC', 1,        '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c'),
    ('EURC', 8453,     '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42'),
    ('EURC', 11155111, '0x08210F9170F89Ab7658F0B5E3fF39b0E03C594D4'),
    ('EURC', 84532,    '0x808456652fdb597867f38412077A9182bf77359F')
) AS v("symbol", "chain_id", "address")
JOIN "finance"."assets" a ON a."symbol" = v."symbol"
ON CONFLICT DO NOTHING;
