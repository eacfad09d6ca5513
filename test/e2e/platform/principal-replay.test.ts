import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyDigest, PRINCIPAL_HEADER, PRINCIPAL_LIFETIME_MS, PrincipalVerifier, signPrincipal } from "../../../lib/auth/internal-principal.ts";
import type { Principal } from "../../../lib/auth/principal.ts";
import { MemoryReplayStore, PostgresReplayStore, replayStoreFor, type ReplayStore } from "../../../lib/auth/replay-store.ts";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { freePort } from "../../support/platform.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 31: a signed internal principal is accepted once by all the replicas of a service, not
// once per process. Two "replicas" (each its own Database, so its own pg.Pool, and its own store,
// as split mode makes them: replayStoreFor) on one PostgreSQL database; on PGlite, where one
// process owns the database and the service keeps its memory store, the PostgreSQL store itself
// on the one database both share.
const SECRET = randomBytes(32).toString("hex");
const GATEWAY: Principal = { kind: "internal", service: "gateway" };
const BODY = JSON.stringify({ query: "{ _service { sdl } }" });
const DIGEST = bodyDigest(BODY);
const sign = (now = Date.now()) => signPrincipal(GATEWAY, { secret: SECRET, audience: "users", body: BODY, now });

let databaseUrl: string | undefined;
let databases: Database[] = [];
let stores: ReplayStore[] = [];
let replicas: PrincipalVerifier[] = [];

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  const first = await openDatabase({ databaseUrl, dataDir: "memory://" });
  databases = databaseUrl ? [first, await openDatabase({ databaseUrl, dataDir: "memory://" })] : [first];
  if (databaseUrl) stores = await Promise.all(databases.map((database) => replayStoreFor(database)));
  else {
    await applyMigrations(first, ["internal"]);
    stores = [new PostgresReplayStore({ database: first }), new PostgresReplayStore({ database: first })];
  }
  replicas = stores.map((store) => new PrincipalVerifier(SECRET, "users", store));
});
afterAll(async () => {
  for (const store of stores) await store.close?.();
  for (const database of databases) await database.close();
});

describe(`the internal principals' replay store, shared by two replicas (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it("split mode shares it on PostgreSQL, and keeps it in memory on PGlite (one process per database)", async () => {
    if (onPostgres) for (const store of stores) expect(store).toBeInstanceOf(PostgresReplayStore);
    // unlogged: an insert's commit waits for no WAL flush
    expect(await databases[0]!.query(`SELECT relpersistence FROM pg_class WHERE oid = 'internal.principal_uses'::regclass`)).toEqual([{ relpersistence: "u" }]);
    const embedded = await openDatabase({ dataDir: "memory://" });
    try {
      expect(await replayStoreFor(embedded)).toBeInstanceOf(MemoryReplayStore);
    } finally {
      await embedded.close();
    }
  });

  it("refuses at one replica a principal the other accepted, either way round", async () => {
    const [a, b] = replicas as [PrincipalVerifier, PrincipalVerifier];
    const first = sign();
    expect(await a.verify(first, DIGEST)).toEqual({ principal: GATEWAY });
    expect(await b.verify(first, DIGEST)).toBeUndefined();
    expect(await a.verify(first, DIGEST)).toBeUndefined();
    const second = sign();
    expect(await b.verify(second, DIGEST)).toEqual({ principal: GATEWAY });
    expect(await a.verify(second, DIGEST)).toBeUndefined();
  });

  it("accepts a principal sent to both replicas 20 times at once exactly once, and 40 fresh ones each once", async () => {
    const header = sign();
    const answers = await Promise.all(replicas.flatMap((replica) => Array.from({ length: 20 }, () => replica.verify(header, DIGEST))));
    expect(answers.filter(Boolean)).toHaveLength(1);
    const fresh = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.verify(sign(), DIGEST)));
    expect(fresh.filter(Boolean)).toHaveLength(40);
  });

  it("deletes the rows a minute past their expiry, and keeps the rest", async () => {
    const database = databases[0]!;
    const store = stores[0] as PostgresReplayStore;
    await database.query(`INSERT INTO internal.principal_uses (jti, expires_at) VALUES ('old', now() - interval '61 seconds'), ('recent', now() - interval '30 seconds')`);
    expect(await store.prune()).toBe(1);
    const left = await database.query<{ jti: string }>(`SELECT jti FROM internal.principal_uses WHERE jti IN ('old', 'recent')`);
    expect(left).toEqual([{ jti: "recent" }]);
    // what the verifiers accepted above expires PRINCIPAL_LIFETIME_MS after it was signed
    const [row] = await database.query<{ ms: number }>(`SELECT (extract(epoch FROM max(expires_at) - now()) * 1000)::float8 AS ms FROM internal.principal_uses`);
    expect(row!.ms).toBeLessThanOrEqual(PRINCIPAL_LIFETIME_MS);
  });
});

// Two processes of the users subgraph (dist/service.js, as docker-compose runs a service) on one
// PostgreSQL database: what split mode builds. On PGlite a database has one process.
describe.runIf(onPostgres)("two processes of one subgraph on PostgreSQL", () => {
  const children: ChildProcess[] = [];
  const output: string[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    const root = join(import.meta.dirname, "..", "..", "..");
    const url = await freshDatabaseUrl();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      urls.push(`http://127.0.0.1:${port}/graphql`);
      const child = spawn(process.execPath, ["dist/service.js", "users"], {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: "warn", INTERNAL_SECRET: SECRET, HOST: "127.0.0.1", SUBGRAPH_PORT: String(port), DATA_DIR: "memory://", DATABASE_URL: url! },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout!.on("data", (chunk) => output.push(`[users ${i}] ${chunk}`));
      child.stderr!.on("data", (chunk) => output.push(`[users ${i}] ${chunk}`));
      children.push(child);
      // one after the other: the second finds the migrations applied
      const deadline = Date.now() + 90_000;
      for (;;) {
        const up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
        if (up) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`users ${i} did not come up:\n${output.join("")}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }, 200_000);
  afterAll(async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)))));
  });

  const post = (url: string, header: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: header }, body: BODY });

  it("a captured principal one replica accepted is refused by the other (401), and each fresh one is accepted by either", async () => {
    const [one, other] = urls as [string, string];
    const captured = sign();
    const accepted = await post(one, captured);
    expect(accepted.status).toBe(200);
    expect((await accepted.json()).data._service.sdl).toContain("type");
    expect((await post(other, captured)).status).toBe(401);
    expect((await post(one, captured)).status).toBe(401);
    expect((await post(other, sign())).status).toBe(200);
    expect((await post(one, sign())).status).toBe(200);
  });
});
