import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import { requireInternal } from "../../lib/auth/authorize.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import type { IdentityDb } from "./db.ts";
import { Organisation } from "./types/organisation.ts";

@Resolver(() => Organisation)
export class OrganisationResolver {
  constructor(private readonly db: IdentityDb) {}

  // dashboard authentication arrives with the identity issue; until then only our services read organisations
  @Query(() => Organisation, { nullable: true })
  organisation(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    requireInternal(ctx.principal);
    return this.db.organisation.findUnique({ where: { id } });
  }
}
