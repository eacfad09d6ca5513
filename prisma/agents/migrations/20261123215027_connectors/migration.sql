-- CreateTable
CREATE TABLE "agents"."connectors" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connectors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents"."user_connectors" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "credentials_sealed" TEXT NOT NULL,
    "last_error" TEXT,
    "last_synced_at" TIMESTAMPTZ(3),
    "exported_through" TIMESTAMPTZ(3),
    "last_sync" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_connectors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_connectors_user_id_created_at_idx" ON "agents"."user_connectors"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "agents"."user_connectors" ADD CONSTRAINT "user_connectors_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "agents"."connectors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The connector catalogue; ids are stable, referenced by user connectors
INSERT INTO "agents"."connectors" ("id", "name", "description", "type", "auth") VALUES
    ('con_sandbox_exchange', 'Sandbox Exchange', 'A crypto exchange account: its balances and trades feed your ledger, so its holdings show in your accounts. Credentials: an API key (sbx_…) and secret.', 'exchange', 'api_key'),
    ('con_open_banking', 'Bank (Open Banking)', 'Your bank accounts, linked through the banking provider: start with POST /v0/open-banking/link-token.', 'bank', 'open_banking'),
    ('con_sandbox_books', 'Sandbox Books', 'Bookkeeping: each sync exports your ledger''s new transactions, categorised, to your books. Connects with an authorization code (sbx_code_…).', 'accounting', 'oauth'),
    ('con_sandbox_tax', 'Sandbox Tax', 'Tax reporting: each sync exports your new taxable events (swaps, ramps, interest, fees) to your tax return. Connects with an authorization code (sbx_code_…).', 'tax', 'oauth');
