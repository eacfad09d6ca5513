import { Arg, Ctx, Directive, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { cardPurchasesAfter, spendingSince, transactionsAfter, walletAvailable } from "./automation-facts.ts";
import { automationSwap, automationTransfer } from "./automation-movements.ts";
import { acknowledgeLedgerEvents, undeliveredLedgerEvents } from "../outbox/ledger-events.ts";
import { closeExternalAccount, syncExternalAccount } from "../external-accounts/external-accounts.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a card purchase, as a round-up strategy reads it." })
export class AutomationCardPurchase {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  amount!: string;

  @Field(() => String, { description: "the stablecoin or currency it was paid in" })
  unit!: string;

  @Field(() => Int, { nullable: true })
  wallet_id!: number | null;

  @Field(() => Date)
  created_at!: Date;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a ledger row as an export (accounting, tax) takes it." })
export class LedgerEntry {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String)
  direction!: string;

  @Field(() => String)
  status!: string;

  @Field(() => String)
  amount!: string;

  @Field(() => String, { description: "asset symbol or currency" })
  unit!: string;

  @Field(() => String, { nullable: true })
  amount_usd!: string | null;

  @Field(() => String, { nullable: true })
  category!: string | null;

  @Field(() => Date)
  timestamp!: Date;

  @Field(() => Date)
  created_at!: Date;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: what an automation's movement booked." })
export class AutomationMovement {
  @Field(() => [String], { description: "the ledger transactions, out then in" })
  transaction_ids!: string[];

  @Field(() => String, { description: "what arrived (the amount bought, for a swap)" })
  amount_in!: string;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a ledger outbox event (a transaction recorded, or its status changed)." })
export class LedgerEvent {
  @Field(() => String, { description: "the outbox id, increasing" })
  id!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "recorded or status_changed" })
  kind!: string;

  @Field(() => JSONObjectScalar, { description: "the transaction as it is after the change (amounts as decimal strings)" })
  payload!: Record<string, unknown>;

  @Field(() => Date)
  created_at!: Date;
}

@Directive("@inaccessible")
@InputType({ description: "Internal: why automation makes a movement (lib/automation-finance.ts AutomationCause); kept on its transactions and copied into their ledger events." })
export class AutomationCauseInput {
  @Field(() => String, { description: "what started the chain: ledger:<event id>, time:<ms>, task:<id>, …" })
  root!: string;

  @Field(() => [String], { description: "the automations that led here, first to last: rule:<id>, strategy:<id>" })
  chain!: string[];

  @Field(() => Int, { description: "automation hops from the root (1: made on a user's own movement or the clock)" })
  depth!: number;

  @Field(() => String, { description: "the firing that made it: a rule execution or a strategy run's task" })
  firing_id!: string;
}

/** Links a cause may hold; the agents service stops chains far shorter (MAX_AUTOMATION_DEPTH). */
const MAX_CAUSE_CHAIN = 16;

/** A cause within bounds: it is stored on every row the movement books. */
function checkCause(cause: AutomationCauseInput): AutomationCause {
  const text = (value: string, loc: string[]) => {
    if (value.length < 1 || value.length > 160) throw validationError(["cause", ...loc], "Value error, between 1 and 160 characters", value, "value_error");
    return value;
  };
  if (cause.chain.length > MAX_CAUSE_CHAIN) throw validationError(["cause", "chain"], `Value error, at most ${MAX_CAUSE_CHAIN} links`, cause.chain.length, "value_error");
  if (!Number.isInteger(cause.depth) || cause.depth < 1 || cause.depth > MAX_CAUSE_CHAIN) throw validationError(["cause", "depth"], `Value error, between 1 and ${MAX_CAUSE_CHAIN}`, cause.depth, "value_error");
  return { root: text(cause.root, ["root"]), chain: cause.chain.map((link, i) => text(link, ["chain", String(i)])), depth: cause.depth, firing_id: text(cause.firing_id, ["firing_id"]) };
}

@Directive("@inaccessible")
@InputType({ description: "Internal: a transfer between two of the user's wallets, or a swap in one (to_wallet_id null, buy_asset set)." })
export class AutomationMovementInput {
  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "the run's key: a repeated run moves nothing more" })
  key!: string;

  @Field(() => Int)
  from_wallet_id!: number;

  @Field(() => Int, { nullable: true })
  to_wallet_id?: number | null;

  @Field(() => String)
  asset!: string;

  @Field(() => String, { nullable: true })
  buy_asset?: string | null;

  @Field(() => String)
  amount!: string;

  @Field(() => String)
  description!: string;

  @Field(() => AutomationCauseInput, { description: "why automation makes it" })
  cause!: AutomationCauseInput;
}

function requireTarget(walletId: number | null | undefined): number {
  if (walletId == null) throw validationError(["to_wallet_id"], "Field required: a transfer needs to_wallet_id (a swap, buy_asset)", walletId ?? null, "missing");
  return walletId;
}

@Directive("@inaccessible")
@InputType({ description: "Internal: a movement at an outside account, as its connector reports it." })
export class ExternalMovementInput {
  @Field(() => String)
  external_id!: string;

  @Field(() => String, { description: "deposit, withdrawal or swap" })
  type!: string;

  @Field(() => String, { description: "in or out" })
  direction!: string;

  @Field(() => String)
  asset!: string;

  @Field(() => String)
  amount!: string;

  @Field(() => Date)
  timestamp!: Date;

  @Field(() => String)
  description!: string;
}

/** Internal fields the agents subgraph's strategies call (as its peer): reads of a user's money, and idempotent movements. */
@Resolver()
export class AgentsPeerResolver {
  constructor(private readonly services: FinanceServices) {}

  @Directive("@inaccessible")
  @Query(() => String, { description: "Internal (agents service): what the wallet may still spend of the asset." })
  _wallet_available(@Arg("user_id", () => String) userId: string, @Arg("wallet_id", () => Int) walletId: number, @Arg("asset", () => String) asset: string, @Ctx() ctx: RequestContext): Promise<string> {
    requireInternal(ctx.principal, "agents");
    return walletAvailable(this.services.db, userId, walletId, asset);
  }

  @Directive("@inaccessible")
  @Query(() => String, { nullable: true, description: "Internal (agents service): the asset's USD price now (PRICE_SOURCE), null when none is known." })
  async _asset_price(@Arg("symbol", () => String) symbol: string, @Ctx() ctx: RequestContext): Promise<string | null> {
    requireInternal(ctx.principal, "agents");
    return (await this.services.prices.price(symbol))?.value_usd ?? null;
  }

  @Directive("@inaccessible")
  @Query(() => String, { description: "Internal (agents service): USD spent in the category since the instant." })
  _spending_since(@Arg("user_id", () => String) userId: string, @Arg("category", () => String) category: string, @Arg("since", () => Date) since: Date, @Ctx() ctx: RequestContext): Promise<string> {
    requireInternal(ctx.principal, "agents");
    return spendingSince(this.services.db, userId, category, since);
  }

  @Directive("@inaccessible")
  @Query(() => [AutomationCardPurchase], { description: "Internal (agents service): the user's card purchases recorded after `after` up to `until`, oldest first." })
  _card_purchases_after(
    @Arg("user_id", () => String) userId: string,
    @Arg("after", () => Date) after: Date,
    @Arg("until", () => Date) until: Date,
    @Arg("limit", () => Int) limit: number,
    @Ctx() ctx: RequestContext,
  ): Promise<AutomationCardPurchase[]> {
    requireInternal(ctx.principal, "agents");
    return cardPurchasesAfter(this.services.db, userId, { after, until }, Math.min(Math.max(limit, 1), 500));
  }

  @Directive("@inaccessible")
  @Query(() => [LedgerEntry], { description: "Internal (agents service): the user's transactions recorded after the instant (not failed), oldest first." })
  _transactions_after(
    @Arg("user_id", () => String) userId: string,
    @Arg("after", () => Date, { nullable: true }) after: Date | null,
    @Arg("limit", () => Int) limit: number,
    @Ctx() ctx: RequestContext,
  ): Promise<LedgerEntry[]> {
    requireInternal(ctx.principal, "agents");
    return transactionsAfter(this.services.db, userId, after, Math.min(Math.max(limit, 1), 1000));
  }

  @Directive("@inaccessible")
  @Query(() => [LedgerEvent], { description: "Internal (agents service): the oldest undelivered ledger outbox events, in order." })
  _ledger_events(@Arg("limit", () => Int) limit: number, @Ctx() ctx: RequestContext): Promise<LedgerEvent[]> {
    requireInternal(ctx.principal, "agents");
    return undeliveredLedgerEvents(this.services.db, Math.min(Math.max(limit, 1), 500));
  }

  @Directive("@inaccessible")
  @Mutation(() => Int, { description: "Internal (agents service): marks events delivered once the consumer recorded them." })
  _ack_ledger_events(@Arg("ids", () => [String]) ids: string[], @Ctx() ctx: RequestContext): Promise<number> {
    requireInternal(ctx.principal, "agents");
    return acknowledgeLedgerEvents(this.services.db, ids);
  }

  @Directive("@inaccessible")
  @Mutation(() => Int, { description: "Internal (agents service): records an outside account's movements as its connector reports them; answers how many were new." })
  _sync_external_account(
    @Arg("user_id", () => String) userId: string,
    @Arg("account_id", () => String) accountId: string,
    @Arg("provider", () => String) provider: string,
    @Arg("name", () => String) name: string,
    @Arg("movements", () => [ExternalMovementInput]) movements: ExternalMovementInput[],
    @Ctx() ctx: RequestContext,
  ): Promise<number> {
    requireInternal(ctx.principal, "agents");
    const checked = movements.map((movement) => ({
      ...movement,
      type: requireOneOf(["deposit", "withdrawal", "swap"] as const, movement.type, ["type"]),
      direction: requireOneOf(["in", "out"] as const, movement.direction, ["direction"]),
    }));
    return syncExternalAccount(this.services, { user_id: userId, account_id: accountId, provider, name, movements: checked });
  }

  @Directive("@inaccessible")
  @Mutation(() => Boolean, { description: "Internal (agents service): closes an outside account whose connector was disconnected." })
  _close_external_account(@Arg("user_id", () => String) userId: string, @Arg("account_id", () => String) accountId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    requireInternal(ctx.principal, "agents");
    return closeExternalAccount(this.services.db, userId, accountId);
  }

  @Directive("@inaccessible")
  @Mutation(() => AutomationMovement, { description: "Internal (agents service): a strategy's or a rule's transfer or swap, idempotent on its key, its rows carrying its cause." })
  async _automation_movement(@Arg("input", () => AutomationMovementInput) input: AutomationMovementInput, @Ctx() ctx: RequestContext): Promise<AutomationMovement> {
    requireInternal(ctx.principal, "agents");
    const common = { user_id: input.user_id, key: input.key, amount: input.amount, description: input.description, cause: checkCause(input.cause), trace_id: ctx.trace_id };
    const movements =
      input.buy_asset != null
        ? await automationSwap(this.services, { ...common, wallet_id: input.from_wallet_id, pay_asset: input.asset, buy_asset: input.buy_asset, pay_amount: input.amount })
        : await automationTransfer(this.services, { ...common, from_wallet_id: input.from_wallet_id, to_wallet_id: requireTarget(input.to_wallet_id), asset: input.asset });
    return { transaction_ids: movements.map((movement) => movement.id), amount_in: movements[1]!.amount };
  }
}
