import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import { AUDIENCE_PATTERN } from "./mandate.ts";

/**
 * Third-party identifiers (PINT audiences). An organisation registers the identifiers its
 * applications use (`com.example.app`, `https://app.example.com`); a mandate names one as its
 * `audience`, and only the registering organisation's keys can exchange it (else PINT-400-002).
 * Identifiers are global: each belongs to one organisation. Removing one revokes every mandate
 * exchanged for it, at once.
 */

export async function registerAudience(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { identifier: string; name?: string | null }) {
  const member = await requireMembership(db, principal, orgId, "admin");
  if (!AUDIENCE_PATTERN.test(input.identifier))
    throw validationError(["body", "identifier"], "Value error, 3-200 characters: letters, digits, . _ : / - (starting with a letter or digit)", input.identifier);
  try {
    return await db.pintAudience.create({ data: { id: newId("aud"), organisation_id: orgId, identifier: input.identifier, name: input.name ?? null, created_by: member.id } });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("IDS-409-001", `The audience identifier "${input.identifier}" is already registered.`);
    throw error;
  }
}

export async function listAudiences(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  return db.pintAudience.findMany({ where: { organisation_id: orgId }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
}

/** Removes the identifier and revokes its mandates in one transaction: their PINT tokens fail from the next request on. */
export async function removeAudience(db: IdentityDb, principal: DashboardPrincipal, orgId: string, audienceId: string) {
  const member = await requireMembership(db, principal, orgId, "admin");
  return db.$transaction(async (tx) => {
    const audience = await tx.pintAudience.findFirst({ where: { id: audienceId, organisation_id: orgId } });
    if (!audience) throw appError("IDS-404-001", `Audience ${audienceId} was not found.`);
    await tx.pintMandate.updateMany({
      where: { organisation_id: orgId, audience: audience.identifier, revoked_at: null },
      data: { revoked_at: new Date(), revoked_by: "organisation", revoked_by_id: member.id },
    });
    await tx.pintAudience.delete({ where: { id: audience.id } });
    return true;
  });
}

/** The organisation that registered `identifier`, or null (exchange step 4). */
export async function audienceOrganisation(db: IdentityDb, identifier: string): Promise<string | null> {
  const row = await db.pintAudience.findUnique({ where: { identifier }, select: { organisation_id: true } });
  return row?.organisation_id ?? null;
}
