import { Arg, Ctx, Field, FieldResolver, ID, InputType, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { Card } from "../types/card.ts";
import { CardAuthorization, CardAuthorizationPage, SandboxCardRefundInput } from "../types/card-authorization.ts";
import { PageInput } from "../types/transaction-page.ts";
import { authorizeCard } from "./authorize-card.ts";
import { listCardAuthorizations } from "./card-authorization-view.ts";
import type { CardView } from "./card-view.ts";
import { captureCardAuthorization, refundCardAuthorization, reverseCardAuthorization } from "./settle-card-authorization.ts";

@InputType()
class SandboxCardMerchantInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "Four-digit merchant category code." })
  mcc!: string;
}

@InputType()
class SandboxCardAuthorizationInput {
  @Field(() => String, { description: "Positive decimal string in `currency`, cents at most." })
  amount!: string;

  @Field(() => String, { description: "ISO 4217; anything but the card's currency is declined (currency_mismatch)." })
  currency!: string;

  @Field(() => SandboxCardMerchantInput)
  merchant!: SandboxCardMerchantInput;
}

const IDEMPOTENCY_KEY = { nullable: true, description: "The Idempotency-Key header: a retry answers the first response." } as const;

/** Card authorizations: the holder reads them; the sandbox simulator plays the network that asks, captures, reverses and refunds. */
@Resolver(() => Card)
export class CardAuthorizationResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @Query(() => CardAuthorizationPage, { description: "One card's authorizations, declined ones included, newest first." })
  card_authorizations(@Arg("card_id", () => ID) cardId: string, @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listCardAuthorizations(this.services.db, { user_id, card_id: cardId, page });
  }

  @AgentTool("read:transactions")
  @FieldResolver(() => CardAuthorizationPage, { description: "The card's authorizations, declined ones included, newest first." })
  authorizations(@Root() card: CardView, @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listCardAuthorizations(this.services.db, { user_id, card_id: card.id, page });
  }

  @Mutation(() => CardAuthorization, { description: "Sandbox mode only: a merchant asks to charge the card; approved (a pending card_purchase) or declined with a reason, recorded either way." })
  sandbox_authorize_card(
    @Arg("card_id", () => ID) cardId: string,
    @Arg("input", () => SandboxCardAuthorizationInput) input: SandboxCardAuthorizationInput,
    @Arg("idempotency_key", () => String, IDEMPOTENCY_KEY) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return authorizeCard(this.services, { user_id, card_id: cardId, ...input, idempotency_key: idempotencyKey, trace_id: ctx.trace_id });
  }

  @Mutation(() => CardAuthorization, { description: "Sandbox mode only: the merchant captures a pending authorization; its purchase completes." })
  sandbox_capture_card_authorization(@Arg("id", () => ID) id: string, @Arg("idempotency_key", () => String, IDEMPOTENCY_KEY) idempotencyKey: string | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return captureCardAuthorization(this.services, { user_id, authorization_id: id, idempotency_key: idempotencyKey });
  }

  @Mutation(() => CardAuthorization, { description: "Sandbox mode only: the merchant reverses a pending authorization; its purchase fails." })
  sandbox_reverse_card_authorization(@Arg("id", () => ID) id: string, @Arg("idempotency_key", () => String, IDEMPOTENCY_KEY) idempotencyKey: string | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return reverseCardAuthorization(this.services, { user_id, authorization_id: id, idempotency_key: idempotencyKey });
  }

  @Mutation(() => CardAuthorization, { description: "Sandbox mode only: the merchant refunds a captured authorization, all that is left or `amount` of it; a completed card_refund into the funding source." })
  sandbox_refund_card_authorization(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => SandboxCardRefundInput, { nullable: true, description: "Absent: all that is left." }) input: SandboxCardRefundInput | null,
    @Arg("idempotency_key", () => String, IDEMPOTENCY_KEY) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return refundCardAuthorization(this.services, { user_id, authorization_id: id, amount: input?.amount ?? null, idempotency_key: idempotencyKey });
  }
}
