import { Arg, Ctx, Directive, Field, Int, ObjectType, Query, Resolver } from "type-graphql";
import { requireInternal } from "../../../lib/auth/authorize.ts";
import { hashToken, isWellFormedPersonalAccessToken } from "../../../lib/auth/personal-access-token.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { findWalletOwners } from "../wallets/wallet-owners.ts";

@Directive("@inaccessible")
@ObjectType({ description: "Internal: who a verified credential belongs to." })
export class ResolvedPrincipal {
  @Field(() => String, { nullable: true })
  user_id!: string | null;

  @Field(() => String)
  environment_id!: string;

  @Field(() => String, { nullable: true })
  token_id!: string | null;

  @Field(() => [String], { nullable: true })
  scopes!: string[] | null;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: an address that may sign for a wallet." })
export class WalletOwnerSigner {
  @Field(() => String)
  address!: string;

  @Field(() => String, { description: "owner or agent" })
  role!: string;

  @Field(() => Boolean, { description: "whether the address is proven to be the user's (a squatter's unproven address signs for nothing)" })
  verified!: boolean;
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: a user owning a wallet, for the identity service's PINT exchange." })
export class WalletOwner {
  @Field(() => String)
  user_id!: string;

  @Field(() => String)
  environment_id!: string;

  @Field(() => String, { description: "account status; approved once KYC passed" })
  status!: string;

  @Field(() => Int)
  wallet_id!: number;

  @Field(() => String, { description: "EOA or Safe" })
  wallet_type!: string;

  @Field(() => [WalletOwnerSigner])
  signers!: WalletOwnerSigner[];
}

/** How often a PAT's last_used_at is written: often enough to be useful, rarely enough to stay cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Internal fields the gateway calls (with its internal principal) to turn a verified credential
 * into a user. @inaccessible keeps them out of the public supergraph.
 */
@Resolver()
export class PrincipalResolver {
  constructor(private readonly services: UsersServices) {}

  @Directive("@inaccessible")
  @Query(() => ResolvedPrincipal, { description: "Internal: the user behind a verified JWT subject." })
  async _principal_for_jwt(
    @Arg("environment_id", () => String) environment_id: string,
    @Arg("issuer", () => String) issuer: string,
    @Arg("subject", () => String) subject: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ResolvedPrincipal> {
    requireInternal(ctx.principal, "gateway");
    const user = await this.services.db.user.findUnique({
      where: { environment_id_auth_issuer_auth_provider_id: { environment_id, auth_issuer: issuer, auth_provider_id: subject } },
      select: { id: true },
    });
    return { user_id: user?.id ?? null, environment_id, token_id: null, scopes: null };
  }

  @Directive("@inaccessible")
  @Query(() => ResolvedPrincipal, { nullable: true, description: "Internal: the user behind a personal access token; null when invalid." })
  async _principal_for_pat(@Arg("token", () => String) token: string, @Ctx() ctx: RequestContext): Promise<ResolvedPrincipal | null> {
    requireInternal(ctx.principal, "gateway");
    if (!isWellFormedPersonalAccessToken(token)) return null;
    const now = new Date();
    const row = await this.services.db.personalAccessToken.findUnique({
      where: { token_hash: hashToken(token) },
      include: { user: { select: { environment_id: true } } },
    });
    if (!row || row.revoked_at || (row.expires_at && row.expires_at <= now)) return null;
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.services.db.personalAccessToken.update({ where: { id: row.id }, data: { last_used_at: now } });
    }
    return { user_id: row.user_id, environment_id: row.user.environment_id, token_id: row.id, scopes: row.scopes };
  }

  @Directive("@inaccessible")
  @Query(() => [WalletOwner], { description: "Internal (identity service): the users owning a wallet, with who may sign for it; with org_id only users that organisation's keys see." })
  _wallet_owners(
    @Arg("address", () => String) address: string,
    @Arg("chain_id", () => Int) chain_id: number,
    @Arg("org_id", () => String, { nullable: true }) org_id: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<WalletOwner[]> {
    requireInternal(ctx.principal, "identity");
    return findWalletOwners(this.services.db, {
      address,
      chain_id,
      org_id,
      ...(this.services.defaultOrganisationId !== undefined && { defaultOrganisationId: this.services.defaultOrganisationId }),
    });
  }
}
