import { createUnionType, Field, InputType, Int, ObjectType } from "type-graphql";
import { Wallet } from "../types/wallet.ts";
import type { OnboardingSafeConfig as OnboardingSafeConfigValue } from "./onboarding-safe.ts";
import { OnboardingSafeModeEnum, OnboardingStepActionEnum, OnboardingStepNameEnum, StepStatusEnum } from "../types/enums.ts";
import { ONBOARDING_SAFE_CONFIG_TYPES, type OnboardingSafeMode, type OnboardingStepAction, type OnboardingStepName } from "../../../lib/vocabulary/onboarding.ts";

@ObjectType({ description: "The transaction the user signs and sends for user_signed_deploy: SafeProxyFactory.createProxyWithNonce." })
export class SafeDeployTransaction {
  @Field(() => Int)
  chain_id!: number;

  @Field(() => String, { description: "The SafeProxyFactory (v1.4.1)." })
  to!: string;

  @Field(() => String, { description: "Calldata, hex." })
  data!: string;

  @Field(() => String, { description: "Wei, decimal string: always 0." })
  value!: string;
}

@ObjectType({ description: "config for agent_create2: the platform's agent signer workflow deploys the Safe by CREATE2." })
export class AgentCreate2ConfigData {
  @Field(() => String, { description: "agent_create2" })
  mode!: string;

  @Field(() => String, { nullable: true, description: "The Safe's address: predicted until deployed (CREATE2), then the deployed one." })
  safe_address!: string | null;

  @Field(() => [String], { description: "The Safe's owners (the user's primary EOA)." })
  owners!: string[];

  @Field(() => Int, { nullable: true })
  threshold!: number | null;

  @Field(() => String, { nullable: true, description: "CREATE2 salt nonce, uint256 as a decimal string." })
  salt_nonce!: string | null;

  @Field(() => String, { nullable: true, description: "The safe_creation_event_id of the deployment; null until one is triggered." })
  event_id!: string | null;
}

@ObjectType({ description: "config for user_signed_deploy: the user signs and sends the deployment of the planned Safe, then submits its transaction hash." })
export class UserSignedDeployData {
  @Field(() => String, { description: "user_signed_deploy" })
  mode!: string;

  @Field(() => String, { nullable: true, description: "The address the deployment creates (CREATE2-predicted)." })
  safe_address!: string | null;

  @Field(() => [String])
  owners!: string[];

  @Field(() => Int, { nullable: true })
  threshold!: number | null;

  @Field(() => String)
  factory_address!: string;

  @Field(() => String, { description: "SafeL2 v1.4.1 (plain Safe on Ethereum mainnet)." })
  singleton_address!: string;

  @Field(() => String, { nullable: true, description: "Safe.setup calldata, hex." })
  initializer!: string | null;

  @Field(() => String, { nullable: true, description: "uint256 as a decimal string." })
  salt_nonce!: string | null;

  @Field(() => SafeDeployTransaction, { nullable: true, description: "What the user signs and sends." })
  deploy_transaction!: SafeDeployTransaction | null;

  @Field(() => String, { nullable: true, description: "The submitted transaction hash; null until submitted." })
  transaction_hash!: string | null;
}

@ObjectType({ description: "config for byo: the user brings an existing Safe on the primary chain." })
export class BYOConfigData {
  @Field(() => String, { description: "byo" })
  mode!: string;

  @Field(() => String, { nullable: true, description: "The submitted Safe; null until submitted." })
  safe_address!: string | null;

  @Field(() => [String], { description: "Safe versions (VERSION()) accepted." })
  accepted_versions!: string[];

  @Field(() => String, { description: "The address that must be among the Safe's owners: the user's primary EOA." })
  required_owner!: string;
}

export const OnboardingSafeConfig = createUnionType({
  name: "OnboardingSafeConfig",
  description: "One of three variants, discriminated by `mode` (equal to the top-level mode).",
  types: () => [UserSignedDeployData, BYOConfigData, AgentCreate2ConfigData] as const,
  resolveType: (value) => ONBOARDING_SAFE_CONFIG_TYPES[(value as OnboardingSafeConfigValue).mode],
});

// fields in the order REST has always answered them (the REST shape is generated from this type)
@ObjectType({ description: "The Safe-onboarding state (OnboardingSafeResponse of spec 2.4, without _links)." })
export class OnboardingSafe {
  @Field(() => OnboardingSafeModeEnum, { description: "user_signed_deploy, byo or agent_create2 (the default: registration triggers it)." })
  mode!: string;

  @Field(() => Int, { nullable: true, description: "The chain the Safe must reside on: the primary chain." })
  chain_id!: number | null;

  @Field(() => Boolean, { description: "True until the step is completed (or skipped)." })
  required!: boolean;

  @Field(() => StepStatusEnum)
  step_status!: string;

  @Field(() => Wallet, { nullable: true, description: "The primary Safe wallet of this mode, once its row exists; null otherwise." })
  wallet!: Wallet | null;

  @Field(() => OnboardingSafeConfig)
  config!: typeof OnboardingSafeConfig;
}

@ObjectType({ description: "One onboarding step." })
export class OnboardingStep {
  @Field(() => OnboardingStepNameEnum)
  name!: string;

  @Field(() => StepStatusEnum)
  step_status!: string;

  @Field(() => Boolean, { description: "True until the step is completed or skipped." })
  required!: boolean;

  @Field(() => Boolean, { description: "Whether action skip is allowed (phone only)." })
  skippable!: boolean;
}

@ObjectType({ description: "The onboarding checklist." })
export class OnboardingChecklist {
  @Field(() => [OnboardingStep], { description: "safe, phone, kyc, in this order." })
  steps!: OnboardingStep[];
}

@InputType({ description: "POST /v0/user/me/onboarding/safe." })
export class SubmitOnboardingSafeInput {
  @Field(() => OnboardingSafeModeEnum, { description: "user_signed_deploy, byo or agent_create2." })
  mode!: OnboardingSafeMode;

  @Field(() => String, { nullable: true, description: "byo only: the existing Safe on the primary chain. Omitted: only records the choice of byo." })
  safe_address?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "user_signed_deploy only: hash of the deployment transaction the user sent (config.deploy_transaction). Omitted: only records the choice.",
  })
  transaction_hash?: string | null;
}

@InputType({ description: "POST /v0/user/me/onboarding/steps: one action on one named step." })
export class SubmitOnboardingStepInput {
  @Field(() => OnboardingStepNameEnum, { description: "safe, phone or kyc." })
  name!: OnboardingStepName;

  @Field(() => OnboardingStepActionEnum, {
    description:
      "complete (kyc: documents submitted in the provider SDK, as submit_kyc; phone and safe: accepted once their own flow completed them) or skip (optional steps only: phone).",
  })
  action!: OnboardingStepAction;
}
