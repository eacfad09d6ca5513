import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { PintRevokerEnum, PintSignerRoleEnum, PintStatusEnum } from "./enums.ts";

@ObjectType({ description: "An exchanged PINT mandate: a wallet's signed grant of scopes to a third party (audience)." })
export class PintMandate {
  @Field(() => ID, { description: "pint_…; the PINT JWT's jti" })
  id!: string;

  @Field(() => String, { description: "the mandate's EIP-712 digest" })
  digest!: string;

  @Field(() => String)
  wallet!: string;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => String)
  signer!: string;

  @Field(() => PintSignerRoleEnum, { description: "owner (the wallet's key or the user's primary EOA) or agent (a registered Safe signer)" })
  signer_role!: string;

  @Field(() => String)
  audience!: string;

  @Field(() => [String])
  scopes!: string[];

  @Field(() => String, { description: "uint256 as decimal text" })
  nonce!: string;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => String, { description: "the user whose wallet signed (the SRI for GET /v0/users/{sri})" })
  user_id!: string;

  @Field(() => String, { description: "the organisation whose key exchanged it (the audience's owner)" })
  organisation_id!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;

  @Field(() => PintRevokerEnum, { nullable: true, description: "user or organisation" })
  revoked_by!: string | null;

  @Field(() => PintStatusEnum, { description: "active, expired or revoked" })
  status!: string;
}

@ObjectType({ description: "The answer of a PINT exchange: the PINT JWT and its mandate." })
export class PintExchange {
  @Field(() => String, { description: "the PINT JWT, for x-platform-pint-token" })
  token!: string;

  @Field(() => String)
  token_type!: string;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => PintMandate)
  pint!: PintMandate;
}

@ObjectType({ description: "A third-party identifier an organisation registered; PINT mandates name one as audience." })
export class PintAudience {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "the identifier as registered; the organisation's own" })
  identifier!: string;

  @Field(() => String, { description: "what mandates name as audience and PINT JWTs carry as aud: <org_id>:<identifier>" })
  audience!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType({ description: "The public keys that verify PINT JWTs (RFC 7517)." })
export class PintJwks {
  @Field(() => [JSONObjectScalar])
  keys!: Record<string, unknown>[];
}

@Directive("@inaccessible")
@ObjectType({ description: "Internal: the mandate behind a verified, unrevoked PINT JWT." })
export class ResolvedPint {
  @Field(() => String)
  mandate_id!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => [String])
  scopes!: string[];

  @Field(() => String)
  audience!: string;

  @Field(() => String)
  org_id!: string;
}
