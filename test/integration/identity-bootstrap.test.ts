import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { createIdentityDb, type IdentityDb } from "../../subgraphs/identity/db.ts";
import { applyBootstrap } from "../../subgraphs/identity/organisations/bootstrap.ts";

// IDENTITY_BOOTSTRAP is applied at every start: it must converge, never duplicate or undo later work.
let database: Database;
let db: IdentityDb;
const BOOTSTRAP = {
  organisation: { id: "org_b", name: "Boot", contact_email: "ops@boot.test" },
  environment: { id: "env_b", name: "Dev" },
  members: [{ sub: "owner-sub", email: "o@boot.test", name: "Owner" }],
};

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["identity"]);
  db = createIdentityDb(database);
});
afterAll(async () => {
  await db.$disconnect();
  await database.close();
});

describe("applyBootstrap", () => {
  it("creates the organisation, its environment and its owners once, however often it runs", async () => {
    await applyBootstrap(db, BOOTSTRAP);
    await applyBootstrap(db, BOOTSTRAP);
    expect(await db.organisation.count()).toBe(1);
    expect(await db.environment.count()).toBe(1);
    expect(await db.member.findMany()).toEqual([expect.objectContaining({ organisation_id: "org_b", sub: "owner-sub", role: "owner", status: "active" })]);
  });

  it("keeps what was added later, and brings back a removed bootstrap member and a deleted environment", async () => {
    await db.member.create({ data: { id: "mem_later", organisation_id: "org_b", sub: "later-sub", role: "member" } });
    await db.environment.create({ data: { id: "env_later", organisation_id: "org_b", name: "Later" } });
    await db.member.updateMany({ where: { sub: "owner-sub" }, data: { status: "removed" } });
    await db.environment.update({ where: { id: "env_b" }, data: { deleted_at: new Date() } });
    await applyBootstrap(db, { ...BOOTSTRAP, organisation: { ...BOOTSTRAP.organisation, name: "Boot Renamed" } });
    expect((await db.organisation.findUniqueOrThrow({ where: { id: "org_b" } })).name).toBe("Boot Renamed");
    expect(await db.member.count({ where: { status: "active" } })).toBe(2);
    expect(await db.environment.count({ where: { deleted_at: null } })).toBe(2);
  });
});
