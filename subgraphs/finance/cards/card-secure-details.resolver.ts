import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { requireJwt } from "../../../lib/auth/authorize.ts";
import { CARD_DETAILS_CHALLENGE_TTL_MS } from "../../../lib/contracts/cards.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { CardDetails, CardDetailsChallenge, CardRevealPage, RevealCardDetailsInput } from "../types/card-secure-details.ts";
import { PageInput } from "../types/transaction-page.ts";
import { createCardDetailsChallenge } from "./card-details-challenge.ts";
import { listCardReveals } from "./list-card-reveals.ts";
import { revealCardDetails } from "./reveal-card-details.ts";

/** A JWT's user only: a PAT, an agent or any other credential never reads a card's details (spec 2.10). Never agent-tagged. */
function jwtUser(ctx: RequestContext): string {
  const caller = requireJwt(ctx.principal);
  if (caller.user_id === null) throw appError("USR-404-001");
  return caller.user_id;
}

/** Spec 2.10's secure card details: a challenge signed by the primary EOA, then the details once, audited. */
@Resolver()
export class CardSecureDetailsResolver {
  constructor(private readonly services: FinanceServices) {}

  @Mutation(() => CardDetailsChallenge, { description: `A single-use challenge (${CARD_DETAILS_CHALLENGE_TTL_MS / 60_000} minutes) for reveal_card_details, to sign with the primary EOA. JWT only.` })
  create_card_details_challenge(@Arg("card_id", () => ID) cardId: string, @Ctx() ctx: RequestContext): Promise<CardDetailsChallenge> {
    const user_id = jwtUser(ctx);
    return createCardDetailsChallenge(this.services, { user_id, card_id: cardId, host: this.services.platformHost, trace_id: ctx.trace_id });
  }

  @Mutation(() => CardDetails, { description: "The card's number, CVV and expiry, for a challenge signed by the primary EOA; spends the challenge, is recorded and limited per card. JWT only." })
  reveal_card_details(
    @Arg("card_id", () => ID) cardId: string,
    @Arg("input", () => RevealCardDetailsInput) input: RevealCardDetailsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CardDetails> {
    const user_id = jwtUser(ctx);
    return revealCardDetails(this.services, { ...input, user_id, card_id: cardId, ip: ctx.client?.address, user_agent: ctx.client?.user_agent });
  }

  @Query(() => CardRevealPage, { description: "The card's detail reveals, newest first (the audit trail). JWT only." })
  card_detail_reveals(
    @Arg("card_id", () => ID) cardId: string,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CardRevealPage> {
    const user_id = jwtUser(ctx);
    return listCardReveals(this.services.db, { user_id, card_id: cardId, page }) as Promise<CardRevealPage>;
  }
}
