import { Arg, Ctx, Directive, Field, ObjectType, Query, Resolver } from "type-graphql";
import type { AccountHolder as AccountHolderContract } from "../../../lib/account-holder.ts";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import type { UsersServices } from "../services.ts";

@Directive("@inaccessible")
@ObjectType({ description: "Internal: what the finance service checks of a card holder." })
export class AccountHolder {
  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "spec 3.1: pending, in_progress, retry, approved or rejected" })
  status!: string;

  @Field(() => String)
  primary_eoa_address!: string;
}

/** Internal fields the finance subgraph calls (as its peer) about the person behind its cards. */
@Resolver()
export class AccountHolderResolver {
  constructor(private readonly services: UsersServices) {}

  @Directive("@inaccessible")
  @Query(() => AccountHolder, { description: "Internal (finance service): the user's verification status and primary EOA, or USR-404-001." })
  async _account_holder(@Arg("user_id", () => String) user_id: string, @Ctx() ctx: RequestContext): Promise<AccountHolderContract> {
    requireInternal(ctx.principal, "finance");
    const user = await this.services.db.user.findUnique({ where: { id: user_id }, select: { id: true, status: true, primary_eoa_address: true } });
    if (!user) throw appError("USR-404-001");
    return { user_id: user.id, status: user.status as AccountStatus, primary_eoa_address: user.primary_eoa_address };
  }
}
