import type { IdentityBootstrap } from "../../../lib/config.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";

/**
 * IDENTITY_BOOTSTRAP, applied at every start: the organisation, its environment and its members
 * exist afterwards with the given values. Running it again changes nothing else (members added
 * later, keys, other environments stay). Members are keyed on (issuer, subject); a row of the
 * same subject recorded before issuers were (issuer null) is adopted rather than duplicated.
 */
export async function applyBootstrap(db: IdentityDb, bootstrap: IdentityBootstrap): Promise<void> {
  const { organisation, environment, members } = bootstrap;
  await db.$transaction(async (tx) => {
    await tx.organisation.upsert({
      where: { id: organisation.id },
      create: { id: organisation.id, name: organisation.name, contact_email: organisation.contact_email ?? null, status: "active" },
      update: { name: organisation.name, ...(organisation.contact_email !== undefined && { contact_email: organisation.contact_email }) },
    });
    await tx.environment.upsert({
      where: { id: environment.id },
      create: { id: environment.id, organisation_id: organisation.id, name: environment.name },
      update: { name: environment.name, deleted_at: null },
    });
    for (const member of members) {
      const existing =
        (await tx.member.findFirst({ where: { organisation_id: organisation.id, issuer: member.issuer, sub: member.sub } })) ??
        (await tx.member.findFirst({ where: { organisation_id: organisation.id, issuer: null, sub: member.sub } }));
      const details = { ...(member.email !== undefined && { email: member.email }), ...(member.name !== undefined && { name: member.name }) };
      if (existing) await tx.member.update({ where: { id: existing.id }, data: { issuer: member.issuer, status: "active", ...details } });
      else await tx.member.create({ data: { id: newId("mem"), organisation_id: organisation.id, issuer: member.issuer, sub: member.sub, role: "owner", ...details } });
    }
  });
}
