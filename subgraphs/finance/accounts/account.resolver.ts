import { Ctx, Directive, FieldResolver, Resolver, Root } from "type-graphql";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { AccountView } from "../types/account.ts";
import { FinanceUser } from "../types/user.ts";
import { accountView, type UserAccounts } from "./account-view.ts";

@Resolver(() => FinanceUser)
export class AccountResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive('@requires(fields: "wallets { id chain_id address nickname }")')
  @AgentTool("read:balances")
  @FieldResolver(() => AccountView, { description: "The unified account view (GET /v0/accounts): every wallet with its balances and USD totals, then every linked bank account (its currency at the balance its bank reported), then every card not closed (no balances of its own: its money stays in its funding source)." })
  accounts(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<UserAccounts> {
    // entity references come from the gateway's plan; still, only the caller's own accounts
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve({ items: [], total_value_usd: "0" });
    return accountView(this.services, user_id, user.wallets);
  }
}
