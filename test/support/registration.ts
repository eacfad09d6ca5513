import { decodeJwt } from "jose";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { userRegistrationMessage } from "../../subgraphs/users/user/register-user.ts";

/** A fresh key-controlled account: a real private key, so tests can sign as the address. */
export function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export interface RegistrationOptions {
  /** the primary EOA; a fresh account by default */
  account?: PrivateKeyAccount;
  chain_id?: number;
  /** "default", or the `<org-id>:<env-id>` sent in x-platform-orgid */
  environment_id?: string;
  issued_at?: number;
}

/**
 * The body of POST /v0/user/ for this JWT, with the primary EOA's signature over the
 * registration message (issuer and subject read from the token).
 */
export async function registrationBody(jwt: string, options: RegistrationOptions = {}) {
  const { iss, sub } = decodeJwt(jwt);
  const account = options.account ?? newAccount();
  const chain_id = options.chain_id ?? 8453;
  const issued_at = options.issued_at ?? Date.now();
  const message = userRegistrationMessage({ environment_id: options.environment_id ?? "default", issuer: iss!, subject: sub!, address: account.address, chain_id, issued_at });
  return { primary_eoa_address: account.address, chain_id, issued_at, signature: await account.signMessage({ message }) };
}
