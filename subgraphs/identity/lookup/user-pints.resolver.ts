import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { mandateRecord } from "../pints/mandates.ts";
import type { IdentityServices } from "../services.ts";
import { IdentityUser, UserPints } from "../types/user.ts";

@Resolver(() => IdentityUser)
export class UserPintsResolver {
  constructor(private readonly services: IdentityServices) {}

  /**
   * A user's PINT balance as the calling key's organisation holds it: the active mandates it
   * exchanged for that user. Keys without idsvc.get_pints (and any other caller) get null.
   */
  @FieldResolver(() => UserPints, { nullable: true })
  async pints(@Root() user: IdentityUser, @Ctx() ctx: RequestContext): Promise<UserPints | null> {
    const principal = ctx.principal;
    if (principal.kind !== "api_key" || !principal.scopes.includes("idsvc.get_pints")) return null;
    const now = new Date();
    const rows = await this.services.db.pintMandate.findMany({
      where: { user_id: user.id, organisation_id: principal.org_id, revoked_at: null, expires_at: { gt: now } },
      orderBy: { created_at: "desc" },
    });
    return { active_count: rows.length, active: rows.map((row) => mandateRecord(row, now)) };
  }
}

export function resolveIdentityUserReference(reference: { id: string }): { id: string } {
  return { id: reference.id };
}
