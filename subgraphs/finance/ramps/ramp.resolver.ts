import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { listLimit } from "../../../lib/list-limit.ts";
import type { RampDirection } from "../../../lib/vocabulary/bank-accounts.ts";
import type { FinanceServices } from "../services.ts";
import { Ramp, RampDirectionEnum, RampQuote } from "../types/ramp.ts";
import { createRamp } from "./create-ramp.ts";
import { quoteRamp } from "./ramp-quote.ts";
import { getRamp, listRamps } from "./ramp-queries.ts";

@InputType()
class RampQuoteInput {
  @Field(() => RampDirectionEnum, { description: "on (bank account → wallet) or off (wallet → bank account)" })
  direction!: RampDirection;

  @Field(() => String)
  bank_account_id!: string;

  @Field(() => Int)
  wallet_id!: number;

  @Field(() => String, { description: "The crypto asset's symbol, in the catalogue on the wallet's chain." })
  asset!: string;

  @Field(() => String, { description: "on: the fiat the bank account pays (cents at most); off: the asset the wallet sends." })
  amount!: string;
}

@Resolver(() => Ramp)
export class RampResolver {
  constructor(private readonly services: FinanceServices) {}

  @Mutation(() => RampQuote, { description: "Prices a ramp: rate, fee and amounts, valid for five minutes." })
  create_ramp_quote(@Arg("input", () => RampQuoteInput) input: RampQuoteInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return quoteRamp(this.services, { ...input, user_id, trace_id: ctx.trace_id });
  }

  @Mutation(() => Ramp, { description: "Carries out a quote: on (bank account → wallet) or off (wallet → bank account). Honours the Idempotency-Key." })
  create_ramp(
    @Arg("direction", () => RampDirectionEnum) direction: RampDirection,
    @Arg("quote_id", () => ID) quoteId: string,
    @Arg("idempotency_key", () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return createRamp(this.services, { user_id, direction, quote_id: quoteId, idempotency_key: idempotencyKey, trace_id: ctx.trace_id });
  }

  @AgentTool("read:transactions")
  @Query(() => [Ramp], { description: "The user's ramps, newest first." })
  ramps(
    @Arg("direction", () => RampDirectionEnum, { nullable: true }) direction: RampDirection | null,
    @Arg("limit", () => Int, { nullable: true, description: "1 to 100, default 20" }) limit: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listRamps(this.services.db, user_id, { direction: direction ?? null, limit: listLimit(limit, { fallback: 20, max: 100 }) });
  }

  @AgentTool("read:transactions")
  @Query(() => Ramp)
  ramp(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getRamp(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }
}
