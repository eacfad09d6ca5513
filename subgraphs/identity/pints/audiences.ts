import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import { IDENTIFIER_PATTERN } from "./mandate.ts";

/**
 * Third-party identifiers (PINT audiences). An organisation registers the identifiers its
 * applications use (`com.example.app`, `https://app.example.com`). Identifiers are namespaced per
 * organisation: a mandate names the audience `<org_id>:<identifier>` (and the PINT JWT carries it
 * as `aud`), so registering another organisation's identifier first captures nothing: mandates
 * for that organisation name its id, and only its keys exchange them (else PINT-400-002).
 * Removing one revokes every mandate exchanged for it, at once.
 */

/** The audience mandates name for an organisation's identifier. */
export function namespacedAudience(orgId: string, identifier: string): string {
  return `${orgId}:${identifier}`;
}

export async function registerAudience(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { identifier: string; name?: string | null }) {
  const member = await requireMembership(db, principal, orgId, "admin");
  if (!IDENTIFIER_PATTERN.test(input.identifier))
    throw validationError(["identifier"], "Value error, 3-200 characters: letters, digits, . _ : / - (starting with a letter or digit)", input.identifier);
  const audience = namespacedAudience(orgId, input.identifier);
  try {
    return await db.pintAudience.create({ data: { id: newId("aud"), organisation_id: orgId, identifier: input.identifier, audience, name: input.name ?? null, created_by: member.id } });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("IDS-409-001", `This organisation already registered "${input.identifier}".`);
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
    // mandates exchanged before audiences were namespaced name the bare identifier
    await tx.pintMandate.updateMany({
      where: { organisation_id: orgId, audience: { in: [audience.audience, audience.identifier] }, revoked_at: null },
      data: { revoked_at: new Date(), revoked_by: "organisation", revoked_by_id: member.id },
    });
    await tx.pintAudience.delete({ where: { id: audience.id } });
    return true;
  });
}

/** The organisation whose registered audience (`<org_id>:<identifier>`) this is, or null (exchange step 4). */
export async function audienceOrganisation(db: IdentityDb, audience: string): Promise<string | null> {
  const row = await db.pintAudience.findUnique({ where: { audience }, select: { organisation_id: true } });
  return row?.organisation_id ?? null;
}
