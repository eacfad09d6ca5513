import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalSubgraphTransport } from "../../lib/graphql/federated-client.ts";
import { generateApiKey, type KeyPartition } from "../../lib/auth/api-key.ts";
import { hashToken } from "../../lib/auth/secret-token.ts";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations, defaultMigrationsRoot } from "../../lib/db/migrations.ts";
import { startSingleProcess, type RunningPlatform } from "../../server/single-process.ts";
import { LEGACY_SCOPES, SCOPE_CATALOGUE } from "../../subgraphs/identity/keys/scopes.ts";

// Spec 5.2.4 and 9: keys minted with legacy scope names keep working after the data migration
// maps them to the dotted catalogue, in the same partition.
const DATA_MIGRATION = "20261121202726_legacy_scope_names";
const ORG = "org_legacy";
const ENV = "env_legacy";

let root: string;
let dataDir: string;
let platform: RunningPlatform | undefined;

interface LegacyKey {
  id: string;
  key: string;
  scopes: string[];
  partition: string;
}

const keys: Record<string, LegacyKey> = {};

async function insertKey(db: Database, id: string, scopes: string[], partition: string, keyPartition: KeyPartition = "server"): Promise<LegacyKey> {
  const key = generateApiKey(keyPartition, "test");
  await db.query(
    `INSERT INTO identity.api_keys (id, organisation_id, environment_id, name, partition, scopes, key_hash, key_prefix, key_last_four)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, ORG, ENV, `legacy ${id}`, partition, scopes, hashToken(key), key.slice(0, 18), key.slice(-4)],
  );
  return { id, key, scopes, partition };
}

/** The identity migrations before the data migration (and any after it), on a database that then gets legacy keys. */
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "legacy-keys-migrations-"));
  await cp(defaultMigrationsRoot, root, { recursive: true });
  const identityMigrations = join(root, "identity", "migrations");
  const names = (await readdir(identityMigrations, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  expect(names).toContain(DATA_MIGRATION);
  for (const name of names) if (name >= DATA_MIGRATION) await rm(join(identityMigrations, name), { recursive: true });

  dataDir = await mkdtemp(join(tmpdir(), "legacy-keys-data-"));
  const db = await openDatabase({ dataDir });
  try {
    const applied = await applyMigrations(db, ["identity"], { migrationsRoot: root });
    expect(applied.map((m) => m.name)).not.toContain(DATA_MIGRATION);
    await db.query(`INSERT INTO identity.organisations (id, name, status) VALUES ($1, 'Legacy Ltd', 'active')`, [ORG]);
    await db.query(`INSERT INTO identity.environments (id, organisation_id, name) VALUES ($1, $2, 'Production')`, [ENV, ORG]);
    // minted before the catalogue: legacy names, a partition recorded (server) or not (empty)
    keys.server = await insertKey(db, "key_legacy_server", ["lookup", "get_kyc", "lookup"], "server");
    keys.unpartitioned = await insertKey(db, "key_legacy_nopart", ["lookup", "idsvc.lookup", "get_details"], "");
    keys.public = await insertKey(db, "key_legacy_public", ["rpc"], "", "public");
    keys.current = await insertKey(db, "key_current", ["idsvc.get_pints"], "server");
    for (const [legacy] of Object.entries(LEGACY_SCOPES)) keys[`only_${legacy}`] = await insertKey(db, `key_only_${legacy}`, [legacy], "");
  } finally {
    await db.close();
  }

  // start-up applies the remaining migrations (the data migration among them) to the same database
  platform = await startSingleProcess(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }), { listen: false });
});

afterAll(async () => {
  await platform?.stop();
  await rm(root, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function row(id: string) {
  const [found] = await platform!.database.query<{ scopes: string[]; partition: string }>(`SELECT scopes, partition FROM identity.api_keys WHERE id = $1`, [id]);
  return found;
}

async function currentKey(key: string) {
  return platform!.apps.identity.inject({ method: "GET", url: "/v0/idsvc/key", headers: { authorization: `Bearer ${key}` } });
}

describe("legacy scope names data migration", () => {
  it("is applied at start-up after the earlier migrations", async () => {
    const applied = await platform!.database.query<{ migration_name: string }>(`SELECT migration_name FROM identity._prisma_migrations WHERE finished_at IS NOT NULL`);
    expect(applied.map((r) => r.migration_name)).toContain(DATA_MIGRATION);
  });

  it("maps every LEGACY_SCOPES name to its dotted scope, and gives an unpartitioned key the scope's partition", async () => {
    for (const [legacy, dotted] of Object.entries(LEGACY_SCOPES)) {
      expect(await row(`key_only_${legacy}`), legacy).toEqual({ scopes: [dotted], partition: SCOPE_CATALOGUE[dotted] });
    }
  });

  it("keeps the order, drops duplicates, keeps a recorded partition and leaves dotted keys alone", async () => {
    expect(await row(keys.server!.id)).toEqual({ scopes: ["idsvc.lookup", "idsvc.get_kyc"], partition: "server" });
    expect(await row(keys.unpartitioned!.id)).toEqual({ scopes: ["idsvc.lookup", "idsvc.get_details"], partition: "server" });
    expect(await row(keys.public!.id)).toEqual({ scopes: ["rpc.invoke"], partition: "public" });
    expect(await row(keys.current!.id)).toEqual({ scopes: ["idsvc.get_pints"], partition: "server" });
  });

  it("lets a legacy key authenticate afterwards, carrying idsvc.lookup in its partition", async () => {
    const response = await currentKey(keys.server!.key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: keys.server!.id, partition: "server", scopes: ["idsvc.lookup", "idsvc.get_kyc"], meta: { org_id: ORG, env_id: ENV } });

    const unpartitioned = await currentKey(keys.unpartitioned!.key);
    expect(unpartitioned.statusCode).toBe(200);
    expect(unpartitioned.json()).toMatchObject({ partition: "server", scopes: expect.arrayContaining(["idsvc.lookup"]) });

    const publicKey = await currentKey(keys.public!.key);
    expect(publicKey.statusCode).toBe(200);
    expect(publicKey.json()).toMatchObject({ partition: "public", scopes: ["rpc.invoke"] });
  });

  it("is what the gateway sees: _principal_for_api_key of the legacy key carries idsvc.lookup", async () => {
    const identity = new LocalSubgraphTransport(platform!.subgraphs.identity!.schema);
    const result = await identity.execute(
      parse(`query ($key: String!) { principal: _principal_for_api_key(key: $key) { key_id org_id env_id partition scopes } }`),
      { key: keys.server!.key },
      { principal: { kind: "internal", service: "gateway" }, trace_id: "legacy-keys" },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.principal).toEqual({ key_id: keys.server!.id, org_id: ORG, env_id: ENV, partition: "server", scopes: ["idsvc.lookup", "idsvc.get_kyc"] });
  });
});
