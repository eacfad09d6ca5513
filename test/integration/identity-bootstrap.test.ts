import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { createIdentityDb, type IdentityDb } from "../../subgraphs/identity/db.ts";
import { applyBootstrap } from "../../subgraphs/identity/organisations/bootstrap.ts";
import { attributeLegacyMembers } from "../../subgraphs/identity/organisations/member-issuers.ts";

// IDENTITY_BOOTSTRAP is applied at every start: it must converge, never duplicate or undo later work.
let database: Database;
let db: IdentityDb;
const BOOTSTRAP = {
  organisation: { id: "org_b", name: "Boot", contact_email: "ops@boot.test" },
  environment: { id: "env_b", name: "Dev" },
  members: [{ issuer: "https://dash-a.test", sub: "owner-sub", email: "o@boot.test", name: "Owner" }],
};
const ISSUER_A = "https://dash-a.test";
const ISSUER_B = "https://dash-b.test";

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
    expect(await db.member.findMany()).toEqual([expect.objectContaining({ organisation_id: "org_b", issuer: ISSUER_A, sub: "owner-sub", role: "owner", status: "active" })]);
  });

  it("keeps what was added later, and brings back a removed bootstrap member and a deleted environment", async () => {
    await db.member.create({ data: { id: "mem_later", organisation_id: "org_b", issuer: ISSUER_A, sub: "later-sub", role: "member" } });
    await db.environment.create({ data: { id: "env_later", organisation_id: "org_b", name: "Later" } });
    await db.member.updateMany({ where: { sub: "owner-sub" }, data: { status: "removed" } });
    await db.environment.update({ where: { id: "env_b" }, data: { deleted_at: new Date() } });
    await applyBootstrap(db, { ...BOOTSTRAP, organisation: { ...BOOTSTRAP.organisation, name: "Boot Renamed" } });
    expect((await db.organisation.findUniqueOrThrow({ where: { id: "org_b" } })).name).toBe("Boot Renamed");
    expect(await db.member.count({ where: { status: "active" } })).toBe(2);
    expect(await db.environment.count({ where: { deleted_at: null } })).toBe(2);
  });
});

// Security review item 8: membership is keyed on the dashboard issuer and subject.
describe("member issuers", () => {
  const dashboardAuth = (...issuers: string[]) => JSON.stringify(issuers.map((issuer, i) => ({ name: `dash${i}`, issuer, jwks_uri: `${issuer}/.well-known/jwks.json` })));
  const bootstrapEnv = (members: unknown[]) => JSON.stringify({ organisation: { id: "org_c", name: "C" }, environment: { id: "env_c", name: "Dev" }, members });

  it("gives a bootstrap member without an issuer the only DASHBOARD_AUTH issuer, and refuses to guess among several", () => {
    const one = loadConfig({ DASHBOARD_AUTH: dashboardAuth(ISSUER_A), IDENTITY_BOOTSTRAP: bootstrapEnv([{ sub: "s" }]) });
    expect(one.identityBootstrap!.members).toEqual([{ issuer: ISSUER_A, sub: "s" }]);
    const explicit = loadConfig({ DASHBOARD_AUTH: dashboardAuth(ISSUER_A, ISSUER_B), IDENTITY_BOOTSTRAP: bootstrapEnv([{ sub: "s", issuer: ISSUER_B }]) });
    expect(explicit.identityBootstrap!.members).toEqual([{ issuer: ISSUER_B, sub: "s" }]);

    const several = () => loadConfig({ DASHBOARD_AUTH: dashboardAuth(ISSUER_A, ISSUER_B), IDENTITY_BOOTSTRAP: bootstrapEnv([{ sub: "s" }]) });
    expect(several).toThrow(ConfigError);
    expect(several).toThrow(/IDENTITY_BOOTSTRAP\.members\[0\]\.issuer/);
    expect(() => loadConfig({ IDENTITY_BOOTSTRAP: bootstrapEnv([{ sub: "s" }]) })).toThrow(/IDENTITY_BOOTSTRAP\.members\[0\]\.issuer/);
    expect(() => loadConfig({ DASHBOARD_AUTH: dashboardAuth(ISSUER_A), IDENTITY_BOOTSTRAP: bootstrapEnv([{ sub: "s", issuer: ISSUER_B }]) })).toThrow(/not an issuer of DASHBOARD_AUTH/);
  });

  it("attributes members recorded without an issuer to the only DASHBOARD_AUTH issuer, and to none of several", async () => {
    const logger = pino({ level: "silent" });
    await db.organisation.create({ data: { id: "org_legacy", name: "Legacy", status: "active" } });
    await db.member.create({ data: { id: "mem_legacy1", organisation_id: "org_legacy", issuer: null, sub: "legacy-1", role: "owner" } });
    await attributeLegacyMembers(db, [ISSUER_A, ISSUER_B], logger);
    expect((await db.member.findUniqueOrThrow({ where: { id: "mem_legacy1" } })).issuer).toBeNull();
    await attributeLegacyMembers(db, [ISSUER_A], logger);
    expect((await db.member.findUniqueOrThrow({ where: { id: "mem_legacy1" } })).issuer).toBe(ISSUER_A);
  });

  it("adopts a bootstrap member's row recorded without an issuer instead of adding a second one", async () => {
    await db.organisation.create({ data: { id: "org_c", name: "C", status: "active" } });
    await db.member.create({ data: { id: "mem_old", organisation_id: "org_c", issuer: null, sub: "boot-owner", role: "owner" } });
    await applyBootstrap(db, { organisation: { id: "org_c", name: "C" }, environment: { id: "env_c", name: "Dev" }, members: [{ issuer: ISSUER_B, sub: "boot-owner" }] });
    expect(await db.member.findMany({ where: { organisation_id: "org_c" } })).toEqual([expect.objectContaining({ id: "mem_old", issuer: ISSUER_B, sub: "boot-owner", status: "active" })]);
  });
});
