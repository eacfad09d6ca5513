import type { IdentityBootstrap } from "../../../lib/config.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";

/**
 * IDENTITY_BOOTSTRAP, applied at every start: the organisation, its environment and its members
 * exist afterwards with the given values. Running it again changes nothing else (members added
 * later, keys, other environments stay).
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
      await tx.member.upsert({
        where: { organisation_id_sub: { organisation_id: organisation.id, sub: member.sub } },
        create: { id: newId("mem"), organisation_id: organisation.id, sub: member.sub, email: member.email ?? null, name: member.name ?? null, role: "owner" },
        update: { status: "active", ...(member.email !== undefined && { email: member.email }), ...(member.name !== undefined && { name: member.name }) },
      });
    }
  });
}
