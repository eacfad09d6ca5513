import type { Logger } from "../../lib/logger.ts";
import type { EnvironmentLimits } from "../../lib/environment-limits.ts";
import type { RegistrationProofPolicy } from "../../lib/registration-proof.ts";
import type { JobQueue } from "../../lib/jobs/job-queue.ts";
import type { SigningKey } from "../../lib/auth/signing-key.ts";
import type { UsersDb } from "./db.ts";
import type { KycProvider } from "./kyc/kyc-provider.ts";
import type { SafeInspector } from "./onboarding/safe-inspector.ts";
import type { SmsSender } from "./phone/sms-sender.ts";
import type { SiweSettings } from "./siwe/siwe-sign-in.ts";

/** What the users subgraph's resolvers need, built once at start and injected. */
export interface UsersServices {
  db: UsersDb;
  jobs: JobQueue;
  logger: Logger;
  supportedChainIds: readonly number[];
  /** ENVIRONMENT_LIMITS: users and Safe deployments per environment */
  environmentLimits: EnvironmentLimits;
  /** REGISTRATION_PROOF: where registration demands proof of control of the address */
  registrationProof: RegistrationProofPolicy;
  chainRpcUrls: Readonly<Record<number, string>>;
  /** KYC_PROVIDER; undefined when none is configured (outside sandbox mode): KYC-503-001 */
  kyc?: KycProvider;
  /** SMS_PROVIDER; undefined when none is configured (outside sandbox mode): PHN-503-001 */
  sms?: SmsSender;
  /** HMAC key for SMS verification codes: per deployment, never stored (phone/phone-code-key.ts) */
  phoneCodeKey: Uint8Array;
  /** reads existing Safes on chain (onboarding byo) */
  safeInspector: SafeInspector;
  signingKey: SigningKey;
  publicBaseUrl: string;
  cliDebugDefault: boolean;
  /** the organisation IDENTITY_BOOTSTRAP provisions: its keys see the default environment's users */
  defaultOrganisationId?: string;
  /** sign-in with Ethereum, when AUTH_PROVIDERS has a siwe entry */
  siwe?: SiweSettings;
}
