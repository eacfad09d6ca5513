import { checksummedAddress } from "../../../lib/address.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { UsersDb } from "../db.ts";
import { triggerSafeDeployment } from "../wallets/safe-deployment.ts";
import { REGISTRATION_STATUS } from "./account-status.ts";

export interface RegisterUserOptions {
  environment_id: string;
  jwt: { provider: string; issuer: string; subject: string };
  primary_eoa_address: string;
  chain_id: number;
  supportedChainIds: readonly number[];
}

/**
 * POST /v0/user/: the user in `pending`, its status history, the primary EOA wallet and the
 * primary Safe in `processing` with its deployment job, all in one transaction. The unique
 * (environment, issuer, subject) index makes concurrent registrations create exactly one user.
 */
export async function registerUser(db: UsersDb, options: RegisterUserOptions): Promise<{ id: string }> {
  const address = checksummedAddress(options.primary_eoa_address, ["body", "primary_eoa_address"]);
  if (!options.supportedChainIds.includes(options.chain_id))
    throw validationError(["body", "chain_id"], "Value error, unsupported chain", options.chain_id, "value_error", { supported: options.supportedChainIds });

  const identity = { environment_id: options.environment_id, auth_issuer: options.jwt.issuer, auth_provider_id: options.jwt.subject };
  if (await db.user.findUnique({ where: { environment_id_auth_issuer_auth_provider_id: identity }, select: { id: true } }))
    throw appError("USR-409-001");

  const id = newId("usr");
  try {
    await db.$transaction(async (tx) => {
      await tx.user.create({
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
      await tx.wallet.create({ data: { user_id: id, type: "EOA", address, chain_id: options.chain_id, is_primary: true } });
      await triggerSafeDeployment(tx, { user_id: id, chain_id: options.chain_id, owner: address, is_primary: true });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("USR-409-001");
    throw error;
  }
  return { id };
}
