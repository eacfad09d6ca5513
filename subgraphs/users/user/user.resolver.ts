import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, FieldResolver, Info, InputType, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireJwt, requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { registrationProofRequired } from "../../../lib/registration-proof.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { selectsField } from "../../../lib/graphql/selects-field.ts";
import type { UsersServices } from "../services.ts";
import { StatusChange } from "../types/status-change.ts";
import { User } from "../types/user.ts";
import { Wallet } from "../types/wallet.ts";
import { UserIdentityRecord, UserKyc } from "../types/user-lookup.ts";
import { grantsLookupScope, visibleToKey } from "./lookup-access.ts";
import { registerUser } from "./register-user.ts";
import { findUser, findUserWithWallets, LISTED_WALLETS, LOADED_WALLETS } from "./user-queries.ts";

@InputType()
class CreateUserInput {
  @Field(() => String, { description: "20-byte hex address of the user's main externally-owned wallet." })
  primary_eoa_address!: string;

  @Field(() => Int, { description: "EIP-155 chain id of the primary EOA and primary Safe." })
  chain_id!: number;

  @Field(() => Date, { nullable: true, description: "With signature: the instant written in the signed registration message." })
  issued_at?: Date | null;

  @Field(() => String, { nullable: true, description: "Proof of control of primary_eoa_address when the JWT does not vouch for it: its signature over the registration message." })
  signature?: string | null;
}

@Resolver(() => User)
export class UserResolver {
  constructor(private readonly services: UsersServices) {}

  @AgentTool("read:balances", "read:transactions")
  @Query(() => User, { description: "The authenticated user (JWT or PAT; agent tokens see its AgentTool fields only)." })
  async me(@Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    // the primary Safe's status is a statement of its own: a dashboard's `me` asking for other
    // fields (wallets, transactions) does not pay for it; asking for wallets, it reads them with the user
    const safeCreationStatus = selectsField(info, "safe_creation_status");
    const user = selectsField(info, "wallets")
      ? await findUserWithWallets(this.services.db, user_id, { safeCreationStatus })
      : await findUser(this.services.db, user_id, { safeCreationStatus });
    if (!user) throw appError("USR-404-001");
    return user;
  }

  @Mutation(() => User, { description: "Registers the JWT's subject as a user (POST /v0/user/)." })
  async create_user(@Arg("input", () => CreateUserInput) input: CreateUserInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const caller = requireJwt(ctx.principal);
    const { id } = await registerUser(this.services.db, {
      environment_id: caller.environment_id,
      jwt: caller.jwt,
      primary_eoa_address: input.primary_eoa_address,
      chain_id: input.chain_id,
      issued_at: input.issued_at?.getTime() ?? null,
      signature: input.signature ?? null,
      supportedChainIds: this.services.supportedChainIds,
      chainRpcUrls: this.services.chainRpcUrls,
      limits: this.services.environmentLimits,
      proofRequired: registrationProofRequired(this.services.registrationProof, caller.environment_id),
    });
    // read before the deployment job is woken: the answer is the user as registered (Safe
    // processing), not a race with a sandbox deployer that completes at once
    const user = await findUser(this.services.db, id);
    this.services.jobs.wake();
    return user;
  }

  @FieldResolver(() => [Wallet])
  wallets(@Root() user: User & { [LOADED_WALLETS]?: unknown[] }): unknown[] | Promise<unknown[]> {
    return user[LOADED_WALLETS] ?? this.services.db.wallet.findMany({ where: { user_id: user.id, ...LISTED_WALLETS }, orderBy: { id: "asc" } });
  }

  @FieldResolver(() => UserIdentityRecord, { nullable: true, description: "With idsvc.get_details (identity lookup), or for the user themselves; null otherwise." })
  identity_record(@Root() user: User & { environment_id: string; phone_verified_at: Date | null }, @Ctx() ctx: RequestContext): UserIdentityRecord | null {
    return grantsLookupScope(ctx.principal, "idsvc.get_details") ? user : null;
  }

  @FieldResolver(() => UserKyc, { nullable: true, description: "With idsvc.get_kyc (identity lookup), or for the user themselves; null otherwise." })
  async kyc(@Root() user: User, @Ctx() ctx: RequestContext): Promise<UserKyc | null> {
    if (!grantsLookupScope(ctx.principal, "idsvc.get_kyc")) return null;
    const last = await this.services.db.statusChange.findFirst({ where: { user_id: user.id, ignored: false }, orderBy: [{ changed_at: "desc" }, { id: "desc" }] });
    return { status: user.status, verified: user.status === "approved", updated_at: last?.changed_at ?? user.created_at };
  }

  @FieldResolver(() => [StatusChange])
  status_history(@Root() user: User): Promise<unknown[]> {
    return this.services.db.statusChange.findMany({ where: { user_id: user.id }, orderBy: [{ changed_at: "asc" }, { id: "asc" }] });
  }
}

/**
 * Entity references from other subgraphs. Identity-service keys (user lookup) only resolve users
 * of their own organisation, PINT tokens only their mandate's user; anyone else's answer is null,
 * exactly like an unknown id.
 */
export function resolveUserReference(services: UsersServices) {
  return async (reference: Pick<User, "id">, ctx: RequestContext) => {
    const user = await findUser(services.db, reference.id);
    if (user && ctx.principal.kind === "api_key" && !visibleToKey(user.environment_id, ctx.principal, services.defaultOrganisationId)) return null;
    // a PINT token reads only the user who signed its mandate
    if (user && ctx.principal.kind === "pint" && user.id !== ctx.principal.user_id) return null;
    return user;
  };
}
