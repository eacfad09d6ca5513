import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { Card, CardFundingSource, CardFundingSourceInput, CreateCardInput, UpdateCardInput } from "../types/card.ts";
import { PageInput, TransactionFilter, TransactionPage } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { feedPage } from "../transactions/feed-page.ts";
import { setCardFunding } from "./card-funding.ts";
import { getCard, listCards, type CardView } from "./card-view.ts";
import { createCard } from "./create-card.ts";
import { activateCard, performCardAction } from "./move-card-status.ts";
import { updateCard } from "./update-card.ts";

@Resolver(() => Card)
export class CardResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:balances")
  @Query(() => [Card], { description: "The user's cards, oldest first (no secrets)." })
  cards(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listCards(this.services.db, { user_id });
  }

  @AgentTool("read:balances")
  @Query(() => Card, { description: "One card of the user (no secrets)." })
  card(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return getCard(this.services.db, { user_id, card_id: id });
  }

  @Mutation(() => Card, { description: "Issues a card (KYC approved, a funding source of the user's); honours the Idempotency-Key." })
  create_card(
    @Arg("input", () => CreateCardInput) input: CreateCardInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: "The Idempotency-Key header: a retry answers the first response." }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return createCard(this.services, { user_id, ...input, idempotency_key: idempotencyKey, trace_id: ctx.trace_id });
  }

  @Mutation(() => Card)
  update_card(@Arg("id", () => ID) id: string, @Arg("input", () => UpdateCardInput) input: UpdateCardInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return updateCard(this.services.db, { user_id, card_id: id, ...input });
  }

  @Mutation(() => Card, { description: "pending → active for a physical card, with the last four digits printed on it." })
  activate_card(@Arg("id", () => ID) id: string, @Arg("last_four", () => String) lastFour: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return this.services.db.$transaction((tx) => activateCard(tx, this.services.cardIssuer, { user_id, card_id: id, last_four: lastFour }));
  }

  @Mutation(() => Card, { description: "active → suspended." })
  freeze_card(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return this.perform(ctx, id, "freeze");
  }

  @Mutation(() => Card, { description: "suspended → active." })
  unfreeze_card(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return this.perform(ctx, id, "unfreeze");
  }

  @Mutation(() => Card, { description: "active or suspended → closed, for good." })
  close_card(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return this.perform(ctx, id, "close");
  }

  @Mutation(() => Card, { description: "Points the card at another funding source of the user's." })
  set_card_funding(@Arg("id", () => ID) id: string, @Arg("input", () => CardFundingSourceInput) input: CardFundingSourceInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return setCardFunding(this.services.db, this.services.users, { user_id, card_id: id, funding_source: input, trace_id: ctx.trace_id });
  }

  @FieldResolver(() => CardFundingSource)
  funding_source(@Root() card: CardView): CardFundingSource {
    const { type, id } = card.funding_source;
    // a reference the users subgraph resolves (and authorises) by key
    return { type, id, wallet: type === "crypto_wallet" ? ({ id: Number(id) } as CardFundingSource["wallet"]) : null };
  }

  @AgentTool("read:transactions")
  @FieldResolver(() => TransactionPage, { description: "The card's transactions, newest first (the feed filtered by card_id)." })
  async transactions(
    @Root() card: CardView,
    @Arg("filter", () => TransactionFilter, { nullable: true }) filter: TransactionFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TransactionPage> {
    const { user_id } = requireUser(ctx.principal, "read");
    return feedPage(this.services, user_id, { ...filter, card_id: card.id }, page, info, ctx);
  }

  private perform(ctx: RequestContext, id: string, action: "freeze" | "unfreeze" | "close"): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return this.services.db.$transaction((tx) => performCardAction(tx, this.services.cardIssuer, { user_id, card_id: id, action }));
  }
}

@Resolver(() => FinanceUser)
export class CardUserResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:balances")
  @FieldResolver(() => [Card], { description: "The user's cards, oldest first (no secrets)." })
  cards(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    // entity references come from the gateway's plan; still, only the caller's own cards
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve([]);
    return listCards(this.services.db, { user_id });
  }
}
