import type { Address } from "viem";
import { jwtVouchesFor } from "../../../lib/auth/jwt-wallets.ts";
import { checksummedAddress } from "../../../lib/address.ts";
import { requireSupportedChain } from "../../../lib/chains.ts";
import type { EnvironmentLimits } from "../../../lib/environment-limits.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import type { UsersDb } from "../db.ts";
import { assertUserCreationAllowed } from "../limits/environment-limits.ts";
import { isFreshProof, verifyAddressControl } from "../wallets/address-control.ts";
import { triggerSafeDeployment } from "../wallets/safe-deployment.ts";
import { REGISTRATION_STATUS } from "./account-status.ts";

export interface RegisterUserOptions {
  environment_id: string;
  /** the verified JWT; `wallet_addresses` are the wallets it vouches for (lib/auth/jwt-wallets.ts) */
  jwt: { provider: string; issuer: string; subject: string; wallet_addresses?: string[] };
  primary_eoa_address: string;
  chain_id: number;
  /** proof of control when the JWT does not vouch for the address: epoch ms in the message, and the signature */
  issued_at?: number | null;
  signature?: string | null;
  supportedChainIds: readonly number[];
  chainRpcUrls: Readonly<Record<number, string>>;
  limits: EnvironmentLimits;
  /** REGISTRATION_PROOF (strict mode): without proof, 403 USR-403-002 instead of an unproven address */
  proofRequired?: boolean;
  now?: number;
}

/**
 * The exact text `primary_eoa_address` signs (EIP-191 `personal_sign`; ERC-1271 / ERC-6492 for a
 * contract account) to prove control at registration. It names the environment and the JWT's
 * issuer and subject, so a signature cannot register the address for anyone else; GET
 * /openapi.json documents it.
 */
export function userRegistrationMessage(input: { environment_id: string; issuer: string; subject: string; address: Address; chain_id: number; issued_at: number }): string {
  return [
    "Register user",
    `Environment: ${input.environment_id}`,
    `Issuer: ${input.issuer}`,
    `Subject: ${input.subject}`,
    `Address: ${input.address}`,
    `Chain ID: ${input.chain_id}`,
    `Issued At: ${new Date(input.issued_at).toISOString()}`,
  ].join("\n");
}

/**
 * Whether the caller proved control of `address`: the JWT vouches for it (a SIWE session for that
 * address, or an identity token listing it among its wallets), or the signature over
 * `userRegistrationMessage` checks out. No proof at all is spec 4.3's plain registration: false
 * (403 USR-403-002 only in strict mode); a proof offered that fails is 403 USR-403-002. Whether
 * someone else registered the address never changes the answer.
 */
async function provesAddressControl(options: RegisterUserOptions, address: Address): Promise<boolean> {
  if (jwtVouchesFor(options.jwt.wallet_addresses, address)) return true;
  if (options.signature == null) {
    if (options.proofRequired) throw appError("USR-403-002");
    return false;
  }
  if (options.issued_at == null) throw validationError(["issued_at"], "Field required: issued_at goes with signature", null, "missing");
  if (!isFreshProof(options.issued_at, options.now)) throw appError("USR-403-002", "issued_at must be within 10 minutes of the server's time.");
  const message = userRegistrationMessage({
    environment_id: options.environment_id,
    issuer: options.jwt.issuer,
    subject: options.jwt.subject,
    address,
    chain_id: options.chain_id,
    issued_at: options.issued_at,
  });
  const proven = await verifyAddressControl({ address, message, signature: options.signature, signer: "either", chain_id: options.chain_id, chainRpcUrls: options.chainRpcUrls });
  if (!proven) throw appError("USR-403-002", "The signature does not prove control of primary_eoa_address.");
  return true;
}

/**
 * POST /v0/user/: within the environment's ENVIRONMENT_LIMITS, the user in `pending`, its status
 * history, the primary EOA wallet (proven or not: `address_verified_at`), the primary Safe in
 * `processing` with its deployment job and the `user.created` event, all in one transaction. The unique (environment, issuer,
 * subject) index makes concurrent registrations create exactly one user.
 */
export async function registerUser(db: UsersDb, options: RegisterUserOptions): Promise<{ id: string }> {
  const address = checksummedAddress(options.primary_eoa_address, ["primary_eoa_address"]);
  requireSupportedChain(options.supportedChainIds, options.chain_id);

  const identity = { environment_id: options.environment_id, auth_issuer: options.jwt.issuer, auth_provider_id: options.jwt.subject };
  if (await db.user.findUnique({ where: { environment_id_auth_issuer_auth_provider_id: identity }, select: { id: true } }))
    throw appError("USR-409-001");
  const address_verified_at = (await provesAddressControl(options, address)) ? new Date(options.now ?? Date.now()) : null;

  const id = newId("usr");
  try {
    await db.$transaction(async (tx) => {
      await assertUserCreationAllowed(tx, options.environment_id, options.limits);
      const user = await tx.user.create({
        data: {
          id,
          ...identity,
          auth_provider: options.jwt.provider,
          status: REGISTRATION_STATUS,
          primary_eoa_address: address,
          primary_chain_id: options.chain_id,
        },
      });
      await tx.statusChange.create({ data: { user_id: id, from: null, to: REGISTRATION_STATUS, cause: "registration" } });
      await emitEvent(tx, { type: "user.created", user_id: id, resource: { type: "user", id }, data: { id, status: user.status, created_at: user.created_at.getTime() } });
      await tx.wallet.create({ data: { user_id: id, type: "EOA", address, chain_id: options.chain_id, is_primary: true, address_verified_at } });
      await triggerSafeDeployment(tx, { user_id: id, chain_id: options.chain_id, owner: address, owner_verified_at: address_verified_at, is_primary: true, limits: options.limits });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("USR-409-001");
    throw error;
  }
  return { id };
}
