import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { PintRevoker, PintStatus } from "../../../lib/vocabulary/pints.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { NewMandate } from "./exchange.ts";

export type MandateRow = Awaited<ReturnType<IdentityDb["pintMandate"]["findFirstOrThrow"]>>;

/** A stored mandate as the API shows it. */
export function mandateRecord(row: MandateRow, now = new Date()) {
  return {
    id: row.id,
    digest: row.digest,
    wallet: row.wallet,
    chain_id: row.chain_id,
    signer: row.signer,
    signer_role: row.signer_role,
    audience: row.audience,
    scopes: row.scopes,
    nonce: row.nonce,
    expires_at: row.expires_at,
    user_id: row.user_id,
    organisation_id: row.organisation_id,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    revoked_by: row.revoked_by,
    status: (row.revoked_at ? "revoked" : row.expires_at <= now ? "expired" : "active") satisfies PintStatus,
  };
}

/** Step 9 of the exchange: one insert; the unique (wallet, chain_id, nonce) and digest indexes settle races. */
export async function insertMandate(db: IdentityDb, mandate: NewMandate): Promise<MandateRow | null> {
  try {
    return await db.pintMandate.create({ data: { id: newId("pint"), ...mandate } });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export function findMandateByDigest(db: IdentityDb, digest: string) {
  return db.pintMandate.findUnique({ where: { digest }, select: { id: true, revoked_at: true } });
}

export interface Page {
  limit: number;
  offset: number;
}

const PAGE_MAX = 200;

function page(input: Partial<Page>): Page {
  return { limit: Math.min(Math.max(input.limit ?? 50, 1), PAGE_MAX), offset: Math.max(input.offset ?? 0, 0) };
}

/** Marks a mandate revoked (once: a second revocation keeps the first's time and actor). */
async function revoke(db: IdentityDb, row: MandateRow, by: PintRevoker, byId: string): Promise<MandateRow> {
  if (row.revoked_at) return row;
  await db.pintMandate.updateMany({ where: { id: row.id, revoked_at: null }, data: { revoked_at: new Date(), revoked_by: by, revoked_by_id: byId } });
  return db.pintMandate.findUniqueOrThrow({ where: { id: row.id } });
}

// The user's side (platform host, JWT or PAT): mandates their wallets signed.

export async function listUserMandates(db: IdentityDb, userId: string, input: Partial<Page> = {}) {
  const { limit, offset } = page(input);
  const rows = await db.pintMandate.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: limit, skip: offset });
  return rows.map((row) => mandateRecord(row));
}

/**
 * Revocation by the user: only the user the mandate was granted by. Users belong to one
 * environment, so this is also the mandate's environment; whoever holds the wallet now, or holds
 * it in another environment, is someone else. Anyone else gets 404, like an unknown id.
 */
export async function revokeUserMandate(db: IdentityDb, userId: string, mandateId: string) {
  const row = await db.pintMandate.findFirst({ where: { id: mandateId, user_id: userId } });
  if (!row) throw appError("PINT-404-001", `No mandate ${mandateId} was granted by this user.`);
  return mandateRecord(await revoke(db, row, "user", userId));
}

export async function getUserMandate(db: IdentityDb, userId: string, mandateId: string) {
  const row = await db.pintMandate.findFirst({ where: { id: mandateId, user_id: userId } });
  if (!row) throw appError("PINT-404-001", `No mandate ${mandateId} was granted by this user.`);
  return mandateRecord(row);
}

// The organisation's side (identity host, dashboard session): mandates exchanged for its audiences.

export async function listOrganisationMandates(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: Partial<Page> & { audience?: string | null } = {}) {
  await requireMembership(db, principal, orgId, "read");
  const { limit, offset } = page(input);
  const rows = await db.pintMandate.findMany({
    where: { organisation_id: orgId, ...(input.audience ? { audience: input.audience } : {}) },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit,
    skip: offset,
  });
  return rows.map((row) => mandateRecord(row));
}

async function findOrganisationMandate(db: IdentityDb, orgId: string, mandateId: string) {
  const row = await db.pintMandate.findFirst({ where: { id: mandateId, organisation_id: orgId } });
  if (!row) throw appError("PINT-404-001", `No mandate ${mandateId} was exchanged for this organisation's audiences.`);
  return row;
}

export async function getOrganisationMandate(db: IdentityDb, principal: DashboardPrincipal, orgId: string, mandateId: string) {
  await requireMembership(db, principal, orgId, "read");
  return mandateRecord(await findOrganisationMandate(db, orgId, mandateId));
}

/** Revocation by the organisation (owners and admins), for a mandate of one of its audiences. */
export async function revokeOrganisationMandate(db: IdentityDb, principal: DashboardPrincipal, orgId: string, mandateId: string) {
  const member = await requireMembership(db, principal, orgId, "admin");
  return mandateRecord(await revoke(db, await findOrganisationMandate(db, orgId, mandateId), "organisation", member.id));
}
