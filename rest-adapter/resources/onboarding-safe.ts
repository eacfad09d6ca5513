import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address } from "../route-kit/schemas.ts";
import { ONBOARDING_SAFE_CONFIG_TYPES } from "../../lib/vocabulary/onboarding.ts";

/** REST's description of an onboarding step's status, which GraphQL leaves to the enum's. */
export const STEP_STATUS = {
  description:
    "not_started: nothing happened yet; awaiting_user: prepared, waiting for the user; processing: the platform or a provider is working (poll); completed; failed: the last attempt failed (act again; terminal for a rejected KYC); skipped: an optional step the user skipped",
};

/**
 * The Safe-onboarding state in REST (spec 2.4, GET and POST /v0/user/me/onboarding/safe), written
 * inline with _links; `config` one of three variants discriminated by `mode`, the wallet the
 * Wallet component. Its body from SubmitOnboardingSafeInput.
 */
export const resource = {
  type: "OnboardingSafe",
  component: false,
  inputs: { SubmitOnboardingSafeInput: "OnboardingSafe" },
  types: {
    OnboardingSafe: { title: "OnboardingSafeResponse", fields: { wallet: { ref: true }, step_status: STEP_STATUS } },
    OnboardingSafeConfig: { discriminator: { propertyName: "mode", mapping: ONBOARDING_SAFE_CONFIG_TYPES } },
    UserSignedDeployData: { fields: { factory_address: { description: "SafeProxyFactory v1.4.1" }, deploy_transaction: { description: "the createProxyWithNonce call the user signs and sends" } } },
    SubmitOnboardingSafeInput: { fields: { safe_address: { schema: Address, acceptsNull: false }, transaction_hash: { acceptsNull: false, pattern: "^0x[0-9a-fA-F]{64}$" } } },
  },
} satisfies RestResource;
