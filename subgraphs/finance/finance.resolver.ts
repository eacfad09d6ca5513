import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { requireUser } from "../../lib/auth/authorize.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import type { FinanceServices } from "./services.ts";
import { Card } from "./types/card.ts";
import { FinanceUser } from "./types/user.ts";

@Resolver(() => FinanceUser)
export class FinanceUserResolver {
  constructor(private readonly services: FinanceServices) {}

  @FieldResolver(() => [Card])
  cards(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    // entity references come from the gateway's plan; still, only the caller's own cards
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve([]);
    return this.services.db.card.findMany({ where: { user_id: user.id }, orderBy: { created_at: "asc" } });
  }
}
