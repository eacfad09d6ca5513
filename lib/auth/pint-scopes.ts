/**
 * The PINT scope catalogue: what a signed mandate may grant its audience (a third party).
 * Shared by the identity service (exchange) and the users subgraph (what a PINT principal reads).
 *
 * Who may grant what (PINT-403-001 otherwise):
 * - `owner`: the wallet's own key (an EOA wallet signs for itself) or the user's primary EOA
 *   signing for the user's Safe: any scope;
 * - `agent`: an address registered as a signer of the user's Safe (`POST /v0/wallets` with
 *   `role: "signer"`): read scopes only.
 */
export type PintScopeAccess = "read" | "write";
export const PINT_SIGNER_ROLES = ["owner", "agent"] as const;
export type PintSignerRole = (typeof PINT_SIGNER_ROLES)[number];

export interface PintScopeDefinition {
  access: PintScopeAccess;
  description: string;
}

export const PINT_SCOPES = {
  "profile.read": { access: "read", description: "the user's id and creation time: `GET /v0/users/{sri}` of the mandate's own user" },
  "identity.read": { access: "read", description: "`user.identity_record` in user lookup (auth provider, primary EOA and chain, phone, environment)" },
  "kyc.read": { access: "read", description: "`user.kyc` in user lookup (KYC status)" },
  "balances.read": { access: "read", description: "wallet balances (reserved: no endpoint accepts PINT tokens for it yet)" },
  "transactions.read": { access: "read", description: "the transaction feed (reserved: no endpoint accepts PINT tokens for it yet)" },
  "payments.write": { access: "write", description: "initiating payments (reserved: no endpoint accepts PINT tokens for it yet)" },
} as const satisfies Record<string, PintScopeDefinition>;

export type PintScope = keyof typeof PINT_SCOPES;

export const PINT_SCOPE_NAMES = Object.keys(PINT_SCOPES) as PintScope[];

export function isPintScope(value: unknown): value is PintScope {
  return typeof value === "string" && Object.hasOwn(PINT_SCOPES, value);
}

/** The scopes of `scopes` a signer of this role may not grant (empty: all permitted). */
export function scopesNotPermitted(role: PintSignerRole, scopes: readonly string[]): string[] {
  if (role === "owner") return [];
  return scopes.filter((scope) => !isPintScope(scope) || PINT_SCOPES[scope].access !== "read");
}

/** The user-lookup field groups a PINT token's scopes open (the API-key scope each mirrors). */
export const PINT_SCOPE_FOR_LOOKUP_SCOPE: Readonly<Record<string, PintScope>> = {
  "idsvc.lookup": "profile.read",
  "idsvc.get_details": "identity.read",
  "idsvc.get_kyc": "kyc.read",
};
