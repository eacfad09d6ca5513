import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { BankingProviderEventInput, BankingProviderEventResult } from "../types/ramp.ts";
import { requireBanking } from "./bank-accounts.ts";
import { applyBankingEvent } from "./banking-provider-event.ts";

@Resolver()
export class BankingProviderEventResolver {
  constructor(private readonly services: FinanceServices) {}

  @Mutation(() => BankingProviderEventResult, {
    description: "Internal (the REST adapter's banking webhook receiver only): applies a verified provider event once; replays are duplicates, illegal moves are recorded as ignored.",
  })
  apply_banking_provider_event(@Arg("input", () => BankingProviderEventInput) input: BankingProviderEventInput, @Ctx() ctx: RequestContext): Promise<BankingProviderEventResult> {
    requireInternal(ctx.principal, "rest-adapter");
    const { db, cardCipher, prices, logger } = this.services;
    return applyBankingEvent(
      { db, cardCipher, prices, logger, banking: requireBanking(this.services.banking) },
      { event_id: input.event_id, type: input.type, item_id: input.item_id ?? null, ramp_id: input.ramp_id ?? null, reason: input.reason ?? null },
    );
  }
}
