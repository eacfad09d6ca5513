import { Arg, Ctx, Directive, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import { DEFAULT_AGENT_TOKEN_DAYS, MAX_AGENT_TOKEN_DAYS, MAX_AGENT_TOKEN_WALLETS } from "../../../lib/contracts/agent-tokens.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { AgentsServices } from "../services.ts";
import { AgentToken, AgentTokenUse, CreatedAgentToken } from "../types/agent-token.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";
import { issueAgentToken, listAgentTokens, listAgentTokenUses, principalForAgentToken, recordAgentTokenUse, revokeAgentToken, walletRestriction } from "./agent-tokens.ts";

@InputType()
class CreateAgentTokenInput {
  @Field(() => String)
  name!: string;

  @Field(() => [String], { description: "A non-empty subset of read:transactions, read:balances, write:transfers, write:strategies." })
  scopes!: string[];

  @Field(() => Int, { nullable: true, description: `Lifetime in days (1-${MAX_AGENT_TOKEN_DAYS}); default ${DEFAULT_AGENT_TOKEN_DAYS}.` })
  expires_in_days?: number | null;

  @Field(() => [Int], { nullable: true, description: `Restricts the token to these wallets of the user (1-${MAX_AGENT_TOKEN_WALLETS}); absent: all of them.` })
  wallet_ids?: number[] | null;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: the live agent token behind a presented secret." })
export class ResolvedAgentToken {
  @Field(() => String)
  token_id!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => String)
  environment_id!: string;

  @Field(() => [String])
  scopes!: string[];

  @Field(() => [Int], { description: "the wallets it may read; empty: every wallet of the user" })
  wallet_ids!: number[];
}

/**
 * The user manages their agent tokens with a JWT or a PAT (reads need `read`, changes `write`),
 * never with an agent token: the gateway keeps agents off these fields (they are not AgentTool
 * fields), and this refuses them again should one arrive.
 */
function tokenOwner(ctx: RequestContext, access: "read" | "write") {
  if (ctx.principal.kind === "agent") throw appError("AGT-403-002", "Agent tokens cannot manage agent tokens.");
  return requireUser(ctx.principal, access);
}

@Resolver(() => AgentToken)
export class AgentTokenResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [AgentToken], { description: "The user's agent tokens, newest first, revoked and expired ones included." })
  agent_tokens(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listAgentTokens(this.services.db, tokenOwner(ctx, "read").user_id);
  }

  @Mutation(() => CreatedAgentToken)
  async create_agent_token(@Arg("input", () => CreateAgentTokenInput) input: CreateAgentTokenInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id, environment_id } = tokenOwner(ctx, "write");
    // each wallet must be the user's own (WAL-404-001 otherwise, as the users subgraph answers)
    for (const wallet_id of walletRestriction(input.wallet_ids)) await findOwnedWallet(this.services.users, { user_id, wallet_id }, ctx.trace_id);
    return issueAgentToken(this.services.db, { user_id, environment_id, ...input });
  }

  @Mutation(() => AgentToken)
  revoke_agent_token(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return revokeAgentToken(this.services.db, { user_id: tokenOwner(ctx, "write").user_id, token_id: id });
  }

  @Query(() => [AgentTokenUse], { description: "The latest requests made with one of the user's agent tokens, newest first." })
  agent_token_uses(@Arg("token_id", () => ID) token_id: string, @Arg("limit", () => Int, { nullable: true }) limit: number | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listAgentTokenUses(this.services.db, { user_id: tokenOwner(ctx, "read").user_id, token_id, limit });
  }

  @Directive("@inaccessible")
  @Query(() => ResolvedAgentToken, { nullable: true, description: "Internal: the live agent token behind a presented secret." })
  _principal_for_agent_token(@Arg("token", () => String) token: string, @Ctx() ctx: RequestContext): Promise<ResolvedAgentToken | null> {
    requireInternal(ctx.principal, "gateway");
    return principalForAgentToken(this.services.db, token);
  }

  @Directive("@inaccessible")
  @Mutation(() => Boolean, { description: "Internal: records one request made with an agent token." })
  async _record_agent_token_use(
    @Arg("token_id", () => String) token_id: string,
    @Arg("operation", () => String) operation: string,
    @Arg("outcome", () => String) outcome: string,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    requireInternal(ctx.principal, "gateway");
    await recordAgentTokenUse(this.services.db, { token_id, operation, outcome });
    return true;
  }
}
