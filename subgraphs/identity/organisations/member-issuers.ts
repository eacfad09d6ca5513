import type { Logger } from "../../../lib/logger.ts";
import type { IdentityDb } from "../db.ts";

/**
 * Members recorded before membership was keyed on the issuer have none, and match no session
 * token. At start they are attributed to the DASHBOARD_AUTH issuer when exactly one is configured
 * (the only issuer their tokens can have come from); with several, nobody can tell, so they stay
 * unattributed until an owner adds them again with their issuer (or IDENTITY_BOOTSTRAP names it).
 * A row whose (organisation, issuer, subject) already exists stays as it is.
 */
export async function attributeLegacyMembers(db: IdentityDb, dashboardIssuers: readonly string[], logger: Logger): Promise<void> {
  const issuers = [...new Set(dashboardIssuers)];
  if (issuers.length === 1) {
    const attributed = await db.$executeRaw`
      UPDATE "identity"."members" AS m SET "issuer" = ${issuers[0]!}
      WHERE m."issuer" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "identity"."members" AS o WHERE o."organisation_id" = m."organisation_id" AND o."issuer" = ${issuers[0]!} AND o."sub" = m."sub")`;
    if (attributed > 0) logger.info({ members: attributed, issuer: issuers[0] }, "members without an issuer attributed to the only DASHBOARD_AUTH issuer");
  }
  const left = await db.member.count({ where: { issuer: null, status: "active" } });
  if (left > 0)
    logger.warn({ members: left }, "members without an issuer match no dashboard session: DASHBOARD_AUTH names several issuers; add them again with their issuer");
}
