import { Arg, Field, InputType, Int, Mutation, ObjectType, Resolver } from "type-graphql";
import type { UsersServices } from "../services.ts";
import { completeSiweSignIn, startSiweSignIn } from "./siwe-sign-in.ts";

@ObjectType({ description: "A sign-in with Ethereum (EIP-4361) challenge: the nonce and the values the message must carry." })
export class SiweChallenge {
  @Field(() => String, { description: "Put in the message's Nonce line; valid for 10 minutes, once." })
  nonce!: string;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => String, { description: "The only domain a message may name (host of the public base URL)." })
  domain!: string;

  @Field(() => String, { description: "Suggested URI line." })
  uri!: string;

  @Field(() => String, { description: "The only scheme a message may name, if it names one." })
  scheme!: string;

  @Field(() => String)
  version!: string;

  @Field(() => [Int], { description: "Chain IDs a message may name." })
  chain_ids!: number[];

  @Field(() => String, { description: "Suggested statement; not checked." })
  statement!: string;
}

@ObjectType({ description: "A session opened by sign-in with Ethereum: a JWT for x-platform-jwt." })
export class SiweSession {
  @Field(() => String)
  token!: string;

  @Field(() => String)
  token_type!: string;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => String, { description: "The checksummed address that signed in; the token's sub." })
  address!: string;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => String, { description: "The token's iss." })
  issuer!: string;
}

@InputType()
class SiweVerifyInput {
  @Field(() => String, { description: "The EIP-4361 message exactly as signed." })
  message!: string;

  @Field(() => String, { description: "0x-prefixed hex signature (EIP-191 personal_sign; ERC-1271 or ERC-6492 for smart accounts)." })
  signature!: string;
}

/** Sign-in with Ethereum; needs no credential. Thin over `siwe-sign-in.ts`. */
@Resolver()
export class SiweResolver {
  constructor(private readonly services: UsersServices) {}

  @Mutation(() => SiweChallenge, { description: "Issues a SIWE nonce (POST /v0/auth/siwe/nonce)." })
  siwe_nonce(): Promise<SiweChallenge> {
    return startSiweSignIn(this.services.db, { siwe: this.services.siwe, supportedChainIds: this.services.supportedChainIds });
  }

  @Mutation(() => SiweSession, { description: "Verifies a signed SIWE message and issues a session JWT (POST /v0/auth/siwe/verify)." })
  siwe_verify(@Arg("input", () => SiweVerifyInput) input: SiweVerifyInput): Promise<SiweSession> {
    return completeSiweSignIn(this.services.db, {
      siwe: this.services.siwe,
      message: input.message,
      signature: input.signature,
      supportedChainIds: this.services.supportedChainIds,
      chainRpcUrls: this.services.chainRpcUrls,
      signingKey: this.services.signingKey,
    });
  }
}
