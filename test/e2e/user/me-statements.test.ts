import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { execute, parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SigningKey } from "../../../lib/auth/signing-key.ts";
import type { Principal, UserPrincipal } from "../../../lib/auth/principal.ts";
import { loadConfig } from "../../../lib/config.ts";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { buildSubgraph, type BuiltSubgraph } from "../../../lib/graphql/define-subgraph.ts";
import { createLogger } from "../../../lib/logger.ts";
import { rateLimitsFor } from "../../../lib/rate-limit/rate-limits.ts";
import { usersSubgraph } from "../../../subgraphs/users/index.ts";
import type { UsersServices } from "../../../subgraphs/users/services.ts";
import { findUser, findUserWithWallets, listWallets, LISTED_WALLETS, LOADED_WALLETS } from "../../../subgraphs/users/user/user-queries.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 30, performance: the users subgraph's `me` reads the user and its wallets in one SQL
// statement (Prisma's include is two), on PGlite and, in the e2e-postgres project, PostgreSQL.
// Its rows must be the ones Prisma reads, field for field.

let database: Database;
let users: BuiltSubgraph<UsersServices>;
let statements = 0;
/** of `statements`, those run on the database directly (lib/db/direct-query.ts), outside Prisma's runtime */
let direct = 0;

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;

/** The database, its Prisma adapter and its direct queries counting the statements sent through them. */
function counting(db: Database): Database {
  const count = (adapter: SqlDriverAdapter): SqlDriverAdapter =>
    new Proxy(adapter, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === "queryRaw" || key === "executeRaw")
          return (...args: unknown[]) => {
            statements++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        if (key === "startTransaction") return async (...args: unknown[]) => count((await (value as (...a: unknown[]) => Promise<SqlDriverAdapter>).apply(target, args)) as SqlDriverAdapter);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const factory = db.adapter();
  const countingFactory: SqlDriverAdapterFactory = { provider: factory.provider, adapterName: factory.adapterName, connect: async () => count(await factory.connect()) };
  const queryTyped: Database["queryTyped"] = (sql, params) => {
    statements++;
    direct++;
    return db.queryTyped(sql, params);
  };
  return Object.assign(Object.create(db) as Database, { adapter: () => countingFactory, queryTyped });
}

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  database = await openDatabase({ ...(databaseUrl && { databaseUrl }), dataDir: "memory://" });
  await applyMigrations(database, ["users"]);
  const config = loadConfig({ DATA_DIR: "memory://", SAFE_DEPLOY_DELAY_MS: "0" });
  users = await buildSubgraph(
    usersSubgraph,
    { config, database: counting(database), logger: createLogger("silent"), signingKey: await SigningKey.load(undefined, "memory://"), rateLimits: await rateLimitsFor(config) },
    {},
  );
});

afterAll(async () => {
  await users?.stop();
  await database?.close();
});

async function seedUser(id: string, wallets: { type: string; role?: string; chain_id: number; is_primary?: boolean; safe_creation_status?: string; deleted?: boolean }[]) {
  const db = users.services.db;
  await db.user.create({
    data: { id, environment_id: "default", auth_provider: "provider_a", auth_issuer: "https://issuer.test", auth_provider_id: id, status: "approved", primary_eoa_address: "0x" + "1".repeat(40), primary_chain_id: 84532, phone_verified_at: new Date("2026-01-02T03:04:05.678Z"), onboarding_skipped_steps: ["phone"] },
  });
  let n = 0;
  for (const wallet of wallets)
    await db.wallet.create({
      data: {
        user_id: id,
        type: wallet.type,
        role: wallet.role ?? "wallet",
        chain_id: wallet.chain_id,
        address: "0x" + String(++n).repeat(40).slice(0, 40),
        is_primary: wallet.is_primary ?? false,
        safe_creation_status: wallet.safe_creation_status ?? null,
        deleted_at: wallet.deleted ? new Date() : null,
        address_verified_at: wallet.type === "EOA" ? new Date("2026-01-02T03:04:05.678Z") : null,
      },
    });
}

const principal = (user_id: string): UserPrincipal => ({ kind: "user", via: "jwt", environment_id: "default", user_id, jwt: { provider: "provider_a", issuer: "https://issuer.test", subject: user_id } });

async function me(user_id: string, selection: string) {
  statements = direct = 0;
  const result = await execute({ schema: users.schema, document: parse(`{ me { ${selection} } }`), contextValue: { principal: principal(user_id), trace_id: "t" } });
  expect(result.errors).toBeUndefined();
  return { data: (result.data as any).me, statements, direct };
}

async function query(user_id: string, source: string, principalOf: (user_id: string) => Principal = principal) {
  statements = direct = 0;
  const result = await execute({ schema: users.schema, document: parse(source), contextValue: { principal: principalOf(user_id), trace_id: "t" } });
  expect(result.errors).toBeUndefined();
  return { data: result.data as any, statements, direct };
}

describe("me and its wallets", () => {
  it("reads the user and its listed wallets as Prisma does: every column, the same values and types", async () => {
    await seedUser("usr_rows", [
      { type: "EOA", chain_id: 84532, is_primary: true },
      { type: "Safe", chain_id: 84532, is_primary: true, safe_creation_status: "completed" },
      { type: "EOA", role: "signer", chain_id: 84532 },
      { type: "Safe", chain_id: 1, safe_creation_status: "failed" },
      { type: "EOA", chain_id: 1, deleted: true },
    ]);
    const db = users.services.db;
    const { [LOADED_WALLETS]: wallets, ...user } = (await findUserWithWallets(db, "usr_rows", { safeCreationStatus: true }))!;
    expect(user).toStrictEqual(await findUser(db, "usr_rows"));
    expect(wallets).toStrictEqual(await db.wallet.findMany({ where: { user_id: "usr_rows", ...LISTED_WALLETS }, orderBy: { id: "asc" } }));
    expect(wallets.map((wallet) => wallet.type)).toEqual(["EOA", "Safe", "Safe"]);
    expect(user.safe_creation_status).toBe("completed");

    // inside an interactive transaction the statement runs through Prisma, with the same answer
    statements = direct = 0;
    const inTransaction = await db.$transaction((tx) => findUserWithWallets(tx, "usr_rows", { safeCreationStatus: true }));
    expect(inTransaction).toStrictEqual({ ...user, [LOADED_WALLETS]: wallets });
    expect(direct).toBe(0);

    const withoutStatus = (await findUserWithWallets(db, "usr_rows", { safeCreationStatus: false }))!;
    expect(withoutStatus.safe_creation_status).toBeUndefined();
    expect(await findUserWithWallets(db, "usr_none", { safeCreationStatus: false })).toBeNull();
  });

  it("answers `me { wallets }` in one statement, with or without safe_creation_status, and a user without wallets too", async () => {
    await seedUser("usr_one", [
      { type: "EOA", chain_id: 84532, is_primary: true },
      { type: "Safe", chain_id: 84532, is_primary: true, safe_creation_status: "processing" },
    ]);
    await seedUser("usr_bare", []);
    const { [LOADED_WALLETS]: none, ...bare } = (await findUserWithWallets(users.services.db, "usr_bare", { safeCreationStatus: true }))!;
    expect(bare).toStrictEqual(await findUser(users.services.db, "usr_bare"));
    expect(none).toEqual([]);

    const bench = await me("usr_one", "id status primary_eoa_address wallets { id address chain_id safe_creation_status }");
    // the hot statement of `GET /v0/user/me` and the three-subgraph query, outside Prisma's runtime
    expect(bench).toMatchObject({ statements: 1, direct: 1 });
    expect(bench.data.wallets.map((wallet: { chain_id: number; safe_creation_status: string | null }) => [wallet.chain_id, wallet.safe_creation_status])).toEqual([
      [84532, null],
      [84532, "processing"],
    ]);

    const withStatus = await me("usr_one", "safe_creation_status wallets { id }");
    expect(withStatus).toMatchObject({ statements: 1, direct: 1, data: { safe_creation_status: "processing" } });
    expect(withStatus.data.wallets).toHaveLength(2);

    expect(await me("usr_bare", "id safe_creation_status wallets { id }")).toEqual({ statements: 1, direct: 1, data: { id: "usr_bare", safe_creation_status: null, wallets: [] } });
    // without wallets, as before: the user alone, or with its primary Safe's status
    expect((await me("usr_one", "id")).statements).toBe(1);
    expect(await me("usr_one", "safe_creation_status")).toEqual({ statements: 2, direct: 0, data: { safe_creation_status: "processing" } });
  });
});

describe("the wallets list", () => {
  it("reads the listed wallets as Prisma's findMany does, for every combination of filters", async () => {
    await seedUser("usr_list", [
      { type: "EOA", chain_id: 84532, is_primary: true },
      { type: "Safe", chain_id: 84532, is_primary: true, safe_creation_status: "completed" },
      { type: "EOA", role: "signer", chain_id: 84532 },
      { type: "Safe", chain_id: 1, safe_creation_status: "failed" },
      { type: "EOA", chain_id: 1 },
      { type: "EOA", chain_id: 1, deleted: true },
    ]);
    await seedUser("usr_other", [{ type: "EOA", chain_id: 1 }]);
    const db = users.services.db;
    const all = await db.wallet.findMany({ where: { user_id: "usr_list", ...LISTED_WALLETS }, orderBy: { id: "asc" } });
    expect(all).toHaveLength(4);
    const someIds = [all[1]!.id, all[3]!.id, (await db.wallet.findFirstOrThrow({ where: { user_id: "usr_other" } })).id];
    for (const walletIds of [undefined, someIds, []])
      for (const chainId of [undefined, null, 1, 84532, 10])
        for (const type of [undefined, "EOA", "Safe"] as const) {
          const expected = await db.wallet.findMany({
            where: { user_id: "usr_list", ...LISTED_WALLETS, ...(walletIds && { id: { in: walletIds } }), ...(chainId != null && { chain_id: chainId }), ...(type && { type }) },
            orderBy: { id: "asc" },
          });
          expect(await listWallets(db, "usr_list", { ...(walletIds && { walletIds }), chainId, ...(type && { type }) }), JSON.stringify({ walletIds, chainId, type })).toStrictEqual(expected);
        }
    expect(await listWallets(db, "usr_nobody")).toEqual([]);
  });

  it("answers the wallets query in one statement outside Prisma's runtime, within an agent's wallet scope", async () => {
    await seedUser("usr_query", [
      { type: "EOA", chain_id: 84532, is_primary: true },
      { type: "Safe", chain_id: 84532, is_primary: true, safe_creation_status: "processing" },
    ]);
    const listed = await query("usr_query", "{ wallets { id chain_id safe_creation_status } }");
    expect(listed).toMatchObject({ statements: 1, direct: 1 });
    expect(listed.data.wallets.map((wallet: { chain_id: number; safe_creation_status: string | null }) => [wallet.chain_id, wallet.safe_creation_status])).toEqual([
      [84532, null],
      [84532, "processing"],
    ]);
    expect((await query("usr_query", "{ wallets(is_eoa: false) { safe_creation_status } }")).data.wallets).toEqual([{ safe_creation_status: "processing" }]);
    expect((await query("usr_query", "{ wallets(chain_id: 1) { id } }")).data.wallets).toEqual([]);
    // an agent scoped to one wallet sees that one only
    const [eoa] = listed.data.wallets as { id: number }[];
    const scoped = (user_id: string): Principal => ({ kind: "agent", token_id: "agt_1", user_id, environment_id: "default", scopes: ["read:balances"], wallet_ids: [eoa!.id] });
    expect((await query("usr_query", "{ wallets { id } }", scoped)).data.wallets).toEqual([{ id: eoa!.id }]);
  });
});
