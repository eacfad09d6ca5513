import { Ctx, Query, Resolver } from "type-graphql";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { AGENT_TOKEN_SCOPES } from "../../../lib/vocabulary/agents.ts";
import { CurrentAgentToken } from "../types/agent-token.ts";

/**
 * An agent token reads what it may do (any scope will do: a token holding only a write scope
 * asks too). The principal already says it, so nothing is looked up; other credentials get null.
 */
@Resolver(() => CurrentAgentToken)
export class CurrentAgentTokenResolver {
  @AgentTool(...AGENT_TOKEN_SCOPES)
  @Query(() => CurrentAgentToken, { nullable: true, description: "The agent token making this request (x-platform-token): its scopes and wallets; null for any other credential." })
  current_agent_token(@Ctx() ctx: RequestContext): CurrentAgentToken | null {
    const { principal } = ctx;
    if (principal.kind !== "agent") return null;
    return { id: principal.token_id, scopes: [...principal.scopes], wallet_ids: [...principal.wallet_ids] };
  }
}
