import { Arg, Ctx, Directive, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard, requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { JSONScalar } from "../../../lib/graphql/scalars.ts";
import type { IdentityServices } from "../services.ts";
import { PintExchange, PintJwks, PintMandate, ResolvedPint } from "../types/pint.ts";
import { audienceOrganisation } from "./audiences.ts";
import { exchangePint, type ExchangePorts } from "./exchange.ts";
import {
  findMandateByDigest,
  getOrganisationMandate,
  getUserMandate,
  insertMandate,
  listOrganisationMandates,
  listUserMandates,
  mandateRecord,
  revokeOrganisationMandate,
  revokeUserMandate,
  type MandateRow,
} from "./mandates.ts";
import { issuePintToken, resolvePintToken } from "./pint-token.ts";
import { findWalletOwners } from "./wallet-owners.ts";

/** The exchange's ports, backed by this subgraph's database, the users subgraph, the chain RPCs and the signing key. */
function exchangePorts(services: IdentityServices, traceId: string): ExchangePorts<MandateRow> {
  const { db } = services;
  return {
    now: () => new Date(),
    supportedChainIds: services.supportedChainIds,
    domainSalt: services.pintDomainSalt,
    rateLimit: (keyId) => services.rateLimiter.consume(`pint_exchange:${keyId}`, services.pintExchangeRule),
    audienceOrganisation: (identifier) => audienceOrganisation(db, identifier),
    mandateByDigest: (digest) => findMandateByDigest(db, digest),
    verifySafeSignature: (check) => services.eip1271.verify(check),
    walletOwners: (wallet, chainId, orgId) => findWalletOwners(services.users, { address: wallet, chain_id: chainId, org_id: orgId }, traceId),
    insertMandate: (mandate) => insertMandate(db, mandate),
    issueToken: (row) => issuePintToken(services.signingKey, services.publicIdentityUrl, row),
  };
}

@Resolver(() => PintMandate)
export class PintResolver {
  constructor(private readonly services: IdentityServices) {}

  @Mutation(() => PintExchange, {
    description: "POST /v0/idsvc/token/pint: a signed mandate ({chain_id, mandate, signature}) for a PINT JWT. Server API key with idsvc.token_exchange.",
  })
  async exchange_pint(@Arg("input", () => JSONScalar, { nullable: true }) input: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    const principal = ctx.principal;
    if (principal.kind !== "api_key") throw appError("IDS-401-001", "The token exchange needs a server API key (Authorization: Bearer idsvc_sk_…).");
    if (principal.partition !== "server") throw appError("IDS-403-001", "The token exchange needs a server key; public keys never exchange mandates.");
    if (!principal.scopes.includes("idsvc.token_exchange")) throw appError("IDS-403-001", "This API key lacks the idsvc.token_exchange scope.");
    const result = await exchangePint(input, principal, exchangePorts(this.services, ctx.trace_id));
    return { token: result.token, token_type: "JWT", expires_at: result.expires_at, pint: mandateRecord(result.mandate) };
  }

  @Query(() => PintMandate, { description: "The mandate behind the presented PINT JWT (x-platform-pint-token): GET /v0/idsvc/token/pint." })
  async current_pint(@Ctx() ctx: RequestContext): Promise<unknown> {
    if (ctx.principal.kind !== "pint") throw appError("PINT-401-003", "Present the PINT JWT in x-platform-pint-token.");
    return mandateRecord(await this.services.db.pintMandate.findUniqueOrThrow({ where: { id: ctx.principal.mandate_id } }));
  }

  @Query(() => PintJwks, { description: "The public keys that verify PINT JWTs ({sis_url}/.well-known/jwks.json)." })
  pint_jwks(): PintJwks {
    return this.services.signingKey.jwks() as PintJwks;
  }

  @Directive("@inaccessible")
  @Query(() => ResolvedPint, { description: "Internal: the gateway verifies x-platform-pint-token here (signature, expiry, revocation)." })
  _principal_for_pint(@Arg("token", () => String) token: string, @Ctx() ctx: RequestContext): Promise<ResolvedPint> {
    requireInternal(ctx.principal, "gateway");
    return resolvePintToken(this.services.db, this.services.signingKey, this.services.publicIdentityUrl, token);
  }

  // The user's side (platform host: x-platform-jwt or x-platform-pat)

  @Query(() => [PintMandate], { description: "GET /v0/user/me/pints: the mandates the user's wallets signed, newest first." })
  my_pints(
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("offset", () => Int, { nullable: true }) offset: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listUserMandates(this.services.db, user_id, { ...(limit != null && { limit }), ...(offset != null && { offset }) });
  }

  @Query(() => PintMandate, { description: "GET /v0/user/me/pints/{pint_id}" })
  my_pint(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return getUserMandate(this.services.db, user_id, id);
  }

  @Mutation(() => PintMandate, { description: "DELETE /v0/user/me/pints/{pint_id}: revokes a mandate of the user's wallet; its PINT JWT fails from the next request on." })
  revoke_my_pint(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return revokeUserMandate(this.services.db, user_id, id);
  }

  // The organisation's side (identity host: dashboard session)

  @Query(() => [PintMandate], { description: "GET /v0/organisation/{org_id}/pints: mandates exchanged for the organisation's audiences, newest first." })
  organisation_pints(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("audience", () => String, { nullable: true }) audience: string | null,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("offset", () => Int, { nullable: true }) offset: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    return listOrganisationMandates(this.services.db, requireDashboard(ctx.principal), orgId, {
      audience,
      ...(limit != null && { limit }),
      ...(offset != null && { offset }),
    });
  }

  @Query(() => PintMandate)
  organisation_pint(@Arg("org_id", () => ID) orgId: string, @Arg("pint_id", () => ID) pintId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getOrganisationMandate(this.services.db, requireDashboard(ctx.principal), orgId, pintId);
  }

  @Mutation(() => PintMandate, { description: "DELETE /v0/organisation/{org_id}/pints/{pint_id}: owners and admins revoke a mandate of their audiences." })
  revoke_organisation_pint(@Arg("org_id", () => ID) orgId: string, @Arg("pint_id", () => ID) pintId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return revokeOrganisationMandate(this.services.db, requireDashboard(ctx.principal), orgId, pintId);
  }
}
