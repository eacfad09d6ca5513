/**
 * Every error the platform and identity service answer with. HTTP statuses and error codes
 * appear here and nowhere else: code throws `appError(code)`, one renderer turns it into a
 * ProblemDetail. `{DOMAIN}-{STATUS}-{SEQUENCE}` with the status matching `status` (a test checks).
 */
export interface ErrorDefinition {
  status: number;
  title: string;
  /** the default `detail`; callers may give a more specific one */
  detail: string;
  /** identity-service errors: `type` is `{docs_url}/errors/<type_name>`, plus `documentation` */
  type_name?: string;
}

export const ERROR_CATALOGUE = {
  // Generic, any surface
  "GEN-400-001": { status: 400, title: "Bad Request", detail: "The request could not be read." },
  "GEN-401-001": { status: 401, title: "Internal Principal Required", detail: "This internal listener accepts only requests carrying a valid signed internal principal." },
  "GEN-404-001": { status: 404, title: "Not Found", detail: "No resource exists at this path." },
  "GEN-405-001": { status: 405, title: "Method Not Allowed", detail: "This path does not accept this method." },
  "GEN-413-001": { status: 413, title: "Payload Too Large", detail: "The request body is larger than allowed." },
  "GEN-415-001": { status: 415, title: "Unsupported Media Type", detail: "Send the request body as application/json, in UTF-8." },
  "GEN-422-001": { status: 422, title: "Validation Error", detail: "The request did not validate." },
  "GEN-429-001": { status: 429, title: "Too Many Requests", detail: "Rate limit exceeded; retry after the seconds in Retry-After." },
  "GEN-500-001": { status: 500, title: "Internal Server Error", detail: "An unexpected error occurred." },
  "GEN-502-001": { status: 502, title: "Bad Gateway", detail: "An upstream service failed to answer." },
  "GEN-503-001": { status: 503, title: "Service Unavailable", detail: "A dependency is unavailable." },
  "GEN-503-002": { status: 503, title: "Overloaded", detail: "The server is too busy to take this request now; retry after the seconds in Retry-After." },
  "GEN-503-003": { status: 503, title: "Shutting Down", detail: "This instance is shutting down and takes no new requests; retry after the seconds in Retry-After." },

  // Platform authentication (spec 5.1, 7.2)
  "USR-401-001": { status: 401, title: "User Authentication Failed", detail: "The JWT is missing, expired or invalid." },
  "USR-401-002": { status: 401, title: "Invalid Org ID Format", detail: "x-platform-orgid must be <org-id>:<env-id>." },
  "USR-401-003": { status: 401, title: "Unknown Environment", detail: "The organisation environment in x-platform-orgid is not known." },
  "USR-401-004": { status: 401, title: "Invalid Personal Access Token", detail: "The personal access token is invalid, expired or revoked." },
  "USR-401-005": { status: 401, title: "Invalid Agent Token", detail: "The agent token (x-platform-token) is invalid, expired or revoked." },
  "USR-403-001": { status: 403, title: "Insufficient Permissions", detail: "The credential does not allow this operation." },
  "USR-403-002": { status: 403, title: "Address Control Not Proven", detail: "This environment registers users only with proof of control of primary_eoa_address (REGISTRATION_PROOF), and neither the JWT nor a signature gives it; sign the registration message (see POST /v0/user/ in /openapi.json)." },
  "USR-404-001": { status: 404, title: "User Not Found", detail: "No user exists for this credential; create one with POST /v0/user/." },
  "USR-409-001": { status: 409, title: "User Already Exists", detail: "A user already exists for this identity." },
  "USR-429-001": { status: 429, title: "User Creation Limit Reached", detail: "This environment has created as many users as it may this hour (ENVIRONMENT_LIMITS); retry after the seconds in Retry-After." },

  // Sign-in with Ethereum
  "SIW-401-001": { status: 401, title: "SIWE Verification Failed", detail: "The signed message or its signature is invalid." },
  "SIW-401-002": { status: 401, title: "SIWE Nonce Invalid", detail: "The nonce is unknown, expired or already used." },
  "SIW-503-001": { status: 503, title: "SIWE Not Configured", detail: "Sign-in with Ethereum is not enabled on this deployment." },

  // Personal access tokens
  "AGT-403-001": { status: 403, title: "Agent Token Scope Missing", detail: "The agent token lacks the scope this operation needs." },
  "AGT-403-002": { status: 403, title: "Not Available To Agent Tokens", detail: "Agent tokens reach only the AgentTool operations (reads) and, with a write scope, the AgentAction operations (see those tags in /openapi.json)." },
  "AGT-403-003": { status: 403, title: "Agent Token Restricted To Wallets", detail: "This agent token may read only some wallets; this operation spans the whole account. Its wallets' transactions, balances and assets remain readable." },
  "AGT-404-001": { status: 404, title: "Agent Token Not Found", detail: "No agent token with this id belongs to the user." },
  "AGT-409-001": { status: 409, title: "Too Many Agent Tokens", detail: "The user holds the most active agent tokens allowed; revoke one before issuing another." },
  "AGT-422-001": { status: 422, title: "Invalid Agent Token Scopes", detail: "scopes must be a non-empty subset of read:transactions, read:balances, write:transfers, write:strategies." },
  "CHT-404-001": { status: 404, title: "Chat Session Not Found", detail: "No chat session with this id belongs to the user." },
  "CHT-404-002": { status: 404, title: "Chat Action Not Found", detail: "No proposed action with this id belongs to this chat session of the user." },
  "CHT-409-001": { status: 409, title: "Chat Action Not Pending", detail: "The action was already confirmed or declined, or its confirmation window has passed; ask the assistant again." },
  "CHT-502-001": { status: 502, title: "Assistant Unavailable", detail: "The assistant's model could not answer; your message is kept, send another to retry." },
  "STR-404-001": { status: 404, title: "Strategy Not Found", detail: "No strategy in the catalogue has this id (GET /v0/strategies)." },
  "STR-404-002": { status: 404, title: "User Strategy Not Found", detail: "No user strategy with this id belongs to the user." },
  "STR-409-001": { status: 409, title: "Illegal Strategy Move", detail: "The user strategy cannot move to that status from the one it is in." },
  "TSK-404-001": { status: 404, title: "Agent Task Not Found", detail: "No agent task with this id belongs to the user." },
  "TSK-409-001": { status: 409, title: "Illegal Task Move", detail: "The agent task cannot move to that status from the one it is in." },
  "NTF-404-001": { status: 404, title: "Notification Not Found", detail: "No notification with this id belongs to the user." },
  "RUL-404-001": { status: 404, title: "Rule Not Found", detail: "No rule with this id belongs to the user." },
  "RUL-409-001": { status: 409, title: "Too Many Rules", detail: "The user holds the most rules allowed; delete one before making another." },
  "WDG-404-001": { status: 404, title: "Widget Not Found", detail: "No widget with this id belongs to the user." },
  "CON-404-001": { status: 404, title: "Connector Not Found", detail: "No connector in the catalogue has this id (GET /v0/connectors)." },
  "CON-404-002": { status: 404, title: "User Connector Not Found", detail: "No connection with this id belongs to the user." },
  "CON-409-001": { status: 409, title: "Illegal Connection Move", detail: "The connection cannot move to that status from the one it is in." },
  "CON-422-001": { status: 422, title: "Credentials Refused", detail: "The service refused these credentials; nothing was connected." },
  "CON-422-002": { status: 422, title: "Connect Elsewhere", detail: "This connector is linked through Open Banking: start with POST /v0/open-banking/link-token." },
  "PAT-404-001": { status: 404, title: "Token Not Found", detail: "No personal access token with this id belongs to the user." },

  // Wallets (spec 2.3, 7.2)
  "WAL-400-001": { status: 400, title: "Invalid Ownership Proof", detail: "The signature does not prove control of the address." },
  "WAL-400-002": { status: 400, title: "Unsupported Wallet Change", detail: "This wallet cannot take that change." },
  "WAL-403-001": { status: 403, title: "Wallet Address Not Proven", detail: "This needs proof that the wallet's address is yours, which has not been given: sign the address-proof message with the address and send it to POST /v0/wallets/{wallet_id}/address-proof, then retry." },
  "WAL-404-001": { status: 404, title: "Wallet Not Found", detail: "No wallet with this id belongs to the user." },
  "WAL-409-001": { status: 409, title: "Wallet Is A Signer", detail: "The wallet carries a signer role on the user's Safe and cannot be deleted." },
  "WAL-409-002": { status: 409, title: "Primary Wallet", detail: "A primary wallet cannot be deleted; designate another primary first." },
  "WAL-409-003": { status: 409, title: "Wallet Already Registered", detail: "This address is already registered for the user on this chain." },
  "WAL-409-004": { status: 409, title: "Safe Creation Not Retryable", detail: "Only a failed Safe creation can be retried." },
  "WAL-409-005": { status: 409, title: "Pregenerated Wallet Not Registrable", detail: "This wallet address cannot be registered as a pregenerated wallet." },
  "WAL-429-001": { status: 429, title: "Safe Deployment Limit Reached", detail: "This environment has started as many Safe deployments as it may today (ENVIRONMENT_LIMITS); retry after the seconds in Retry-After." },

  // Onboarding (spec 4.2)
  "ONB-400-001": { status: 400, title: "Onboarding Mode Mismatch", detail: "The submission does not match the onboarding mode." },
  "ONB-400-002": { status: 400, title: "Invalid Safe", detail: "The submitted Safe cannot be used." },
  "ONB-400-003": { status: 400, title: "Step Not Skippable", detail: "Only optional onboarding steps can be skipped." },
  "ONB-409-001": { status: 409, title: "Onboarding Step Conflict", detail: "The onboarding step is not in a state that allows this action." },

  // Assets (spec 2.10)
  "AST-404-001": { status: 404, title: "Asset Not Found", detail: "No asset with this id is in the catalogue." },

  // Transactions and the ledger (spec 2.10, 3.4); TXN-422-001 is every money-moving POST's Idempotency-Key reuse
  "TXN-404-001": { status: 404, title: "Transaction Not Found", detail: "No transaction with this id belongs to the user." },
  "TXN-409-001": { status: 409, title: "Transaction Status Move Not Allowed", detail: "The transaction's status does not allow this move (pending → processing → completed or failed)." },
  "TXN-409-002": { status: 409, title: "Insufficient Balance", detail: "The movement would overdraw its source." },
  "TXN-422-001": { status: 422, title: "Idempotency Key Reused", detail: "This Idempotency-Key was used with a different request; use a new key for a new request." },
  "TXN-422-002": { status: 422, title: "Unknown Asset", detail: "The asset is not in the catalogue for this source's chain." },

  // Budgets (spec 2.10)
  "BGT-404-001": { status: 404, title: "Budget Not Found", detail: "No budget with this id belongs to the user." },
  "BGT-409-001": { status: 409, title: "Budget Already Exists", detail: "The user already has a budget for this category and period; update that one." },
  "BGT-422-001": { status: 422, title: "Unknown Currency", detail: "The budget's currency is not a symbol of the asset catalogue (GET /v0/assets)." },

  // Cards (spec 2.10, 3.3)
  "CRD-403-001": { status: 403, title: "Verification Required", detail: "Cards are issued only to users whose identity verification (KYC) is approved." },
  "CRD-403-002": { status: 403, title: "Card Details Proof Invalid", detail: "Revealing card details needs a fresh, unused challenge signed by the user's primary wallet." },
  "CRD-404-001": { status: 404, title: "Card Not Found", detail: "No card with this id belongs to the user." },
  "CRD-404-002": { status: 404, title: "Card Authorization Not Found", detail: "No card authorization with this id belongs to the user." },
  "CRD-409-001": { status: 409, title: "Card Status Move Not Allowed", detail: "The card's status does not allow this move (pending → active ⇄ suspended → closed)." },
  "CRD-409-002": { status: 409, title: "Authorization Not In This State", detail: "The authorization's status does not allow this action." },
  "CRD-422-001": { status: 422, title: "Conflicting MCC Controls", detail: "Set allowed_mcc or blocked_mcc, not both." },
  "CRD-422-002": { status: 422, title: "Card Number Mismatch", detail: "The last four digits do not match the card being activated." },
  "CRD-422-003": { status: 422, title: "Refund Exceeds Capture", detail: "Refunds of an authorization never total more than its captured amount." },
  "CRD-503-001": { status: 503, title: "Card Issuing Unavailable", detail: "No card issuer is configured (CARD_ISSUER)." },
  "CRD-429-001": { status: 429, title: "Too Many Card Detail Reveals", detail: "This card's details were revealed too often recently; try again later." },

  // Bank accounts (spec 2.10)
  "BNK-400-001": { status: 400, title: "Invalid Link Token", detail: "The link or public token is invalid, expired or already used; start linking again with POST /v0/open-banking/link-token." },
  "BNK-422-001": { status: 422, title: "Unknown Institution", detail: "No sandbox institution has this id (see POST /v0/sandbox/open-banking/link)." },
  "BNK-422-002": { status: 422, title: "Institution Refused The Login", detail: "The institution refused the credentials; nothing was linked." },
  "BNK-503-001": { status: 503, title: "No Banking Provider", detail: "No banking provider is configured here (the sandbox provider exists in sandbox mode only)." },
  "BNK-404-001": { status: 404, title: "Bank Account Not Found", detail: "No linked bank account with this id belongs to the user." },
  "BNK-409-001": { status: 409, title: "Bank Transaction Not Pending", detail: "Only a pending transaction at the sandbox bank can be posted or removed." },
  "BNK-502-001": { status: 502, title: "Banking Provider Error", detail: "The banking provider could not carry out the request; retry later." },

  // On- and off-ramps (bank account ⇄ wallet through the banking provider)
  "RMP-403-001": { status: 403, title: "Verification Required", detail: "Ramps are open only to users whose identity verification (KYC) is approved." },
  "RMP-404-001": { status: 404, title: "Ramp Quote Not Found", detail: "No ramp quote with this id belongs to the user." },
  "RMP-404-002": { status: 404, title: "Ramp Not Found", detail: "No ramp with this id belongs to the user." },
  "RMP-409-001": { status: 409, title: "Ramp Quote Used", detail: "This quote was already carried out; ask for a new one with POST /v0/ramps/quotes." },
  "RMP-409-002": { status: 409, title: "Ramp Quote Expired", detail: "This quote has expired; ask for a new one with POST /v0/ramps/quotes." },
  "RMP-409-003": { status: 409, title: "Bank Connection Not Active", detail: "The bank account's connection needs attention (log in at the bank again) before money can move through it." },
  "RMP-422-001": { status: 422, title: "Ramp Amount Too Small", detail: "After the provider's fee nothing would be left to deliver; ask for a larger amount." },
  "RMP-422-002": { status: 422, title: "Quote Is For The Other Direction", detail: "An on-ramp needs an on quote and an off-ramp an off quote." },
  "RMP-503-001": { status: 503, title: "No Price For The Ramp", detail: "No price is known for the asset or the bank account's currency right now; retry later." },

  // Insights (spec 2.10)
  "INS-404-001": { status: 404, title: "Insight Not Found", detail: "No insight with this id belongs to the user." },

  // Chains
  "CHN-502-001": { status: 502, title: "Chain Unavailable", detail: "The chain could not be reached; retry later." },

  // KYC and phone verification (spec 3.1)
  "KYC-409-001": { status: 409, title: "Verification Not Allowed", detail: "The verification status does not allow this action." },
  "KYC-409-002": { status: 409, title: "Verification Not Started", detail: "No verification applicant exists yet; request an access token (POST /v0/kyc/access-token) and submit documents in the provider SDK first." },
  "KYC-502-001": { status: 502, title: "Verification Provider Unavailable", detail: "The verification provider did not answer." },
  "KYC-503-001": { status: 503, title: "Verification Provider Not Configured", detail: "No identity-verification provider is configured (KYC_PROVIDER); verification cannot start." },
  "PHN-400-001": { status: 400, title: "Invalid Verification Code", detail: "The code is wrong." },
  "PHN-404-001": { status: 404, title: "No Pending Verification", detail: "Request a code first." },
  "PHN-410-001": { status: 410, title: "Verification Code Expired", detail: "The code has expired or used up its attempts; request a new one." },
  "PHN-429-001": { status: 429, title: "Too Many Codes", detail: "Too many codes requested; retry after the seconds in Retry-After." },
  "PHN-502-001": { status: 502, title: "SMS Provider Unavailable", detail: "The SMS could not be sent." },
  "PHN-503-001": { status: 503, title: "SMS Provider Not Configured", detail: "No SMS provider is configured (SMS_PROVIDER); codes cannot be sent." },

  // Identity service (spec 5.2, 7.1, 7.3): `type` is {docs_url}/errors/<type_name>
  "IDS-401-001": { status: 401, title: "Invalid API Key", detail: "The API key is missing, invalid or revoked.", type_name: "invalid_api_key" },
  "IDS-401-002": { status: 401, title: "Invalid Session", detail: "The dashboard session token is missing, expired or invalid.", type_name: "invalid_session" },
  "IDS-403-001": { status: 403, title: "Insufficient Scope", detail: "The API key does not carry the scope this operation needs.", type_name: "insufficient_scope" },
  "IDS-403-002": { status: 403, title: "Wrong Credential", detail: "This operation does not accept this kind of credential.", type_name: "wrong_credential" },
  "IDS-403-003": { status: 403, title: "Insufficient Role", detail: "Only owners and admins of the organisation may do this.", type_name: "insufficient_role" },
  "IDS-403-004": { status: 403, title: "Owner Role Required", detail: "Only an owner grants the owner role or takes it away.", type_name: "owner_required" },
  "IDS-404-001": { status: 404, title: "Not Found", detail: "The resource does not exist or is not visible to this credential.", type_name: "not_found" },
  "IDS-409-001": { status: 409, title: "Conflict", detail: "The resource already exists.", type_name: "conflict" },
  "IDS-409-002": { status: 409, title: "Last Owner", detail: "An organisation keeps at least one owner.", type_name: "last_owner" },
  "IDS-409-003": { status: 409, title: "Webhook Endpoint Limit", detail: "The environment already has the most webhook endpoints allowed; delete one first.", type_name: "webhook_endpoint_limit" },
  "IDS-409-004": { status: 409, title: "Nothing To Redeliver To", detail: "No enabled webhook endpoint of the event's environment is subscribed to its type.", type_name: "no_webhook_endpoint" },
  "IDS-400-001": { status: 400, title: "Invalid Resource Identifier", detail: "The SRI is not a platform user id (usr_…).", type_name: "invalid_sri" },
  "IDS-422-006": { status: 422, title: "Invalid Scopes", detail: "scopes must be non-empty, known and from one partition.", type_name: "invalid_scopes" },
  "IDS-422-007": { status: 422, title: "Invalid Environment", detail: "env_id is not an active environment of this organisation.", type_name: "invalid_environment" },

  // PINT exchange and PINT JWTs (spec 4.6, 5.2.6, 7.3, 7.4): `type` is {docs_url}/errors/<type_name>
  "PINT-400-001": { status: 400, title: "Invalid PINT Payload", detail: "The mandate is malformed or misses fields.", type_name: "invalid_pint_payload" },
  "PINT-400-002": { status: 400, title: "Invalid Audience", detail: "The audience is not a third-party identifier registered by this organisation.", type_name: "invalid_audience" },
  "PINT-401-001": { status: 401, title: "Invalid Signature", detail: "EIP-712 (ECDSA) verification of the mandate failed.", type_name: "invalid_signature" },
  "PINT-401-002": { status: 401, title: "Invalid EIP-1271 Signature", detail: "The Safe contract did not accept the mandate's signature (EIP-1271).", type_name: "invalid_signature_eip1271" },
  "PINT-401-003": { status: 401, title: "Invalid PINT Token", detail: "The PINT token is malformed, was not issued here, or its signature is invalid.", type_name: "invalid_pint_token" },
  "PINT-401-004": { status: 401, title: "PINT Token Expired", detail: "The PINT token has expired; exchange a new mandate.", type_name: "pint_token_expired" },
  "PINT-401-006": { status: 401, title: "PINT Token Revoked", detail: "The mandate behind this PINT token was revoked.", type_name: "pint_token_revoked" },
  "PINT-403-001": { status: 403, title: "Scope Not Permitted", detail: "The scopes are not authorised for this wallet or signer.", type_name: "scope_not_permitted" },
  "PINT-403-002": { status: 403, title: "KYC Not Verified", detail: "The wallet's user has not completed KYC.", type_name: "kyc_not_verified" },
  "PINT-404-001": { status: 404, title: "PINT Not Found", detail: "No mandate with this id is visible to this credential.", type_name: "pint_not_found" },
  "PINT-409-001": { status: 409, title: "Nonce Already Used", detail: "This nonce was already used for this wallet; increment it and sign again.", type_name: "nonce_already_used" },
  "PINT-409-002": { status: 409, title: "PINT Revoked", detail: "The mandate was revoked; it yields no new tokens.", type_name: "pint_revoked" },
  "PINT-410-001": { status: 410, title: "PINT Expired", detail: "The mandate's expiresAt has passed; sign a new one with a future expiresAt.", type_name: "pint_expired" },
  "PINT-424-001": { status: 424, title: "EIP-1271 Unavailable", detail: "The on-chain call to the Safe contract failed; retry with exponential backoff.", type_name: "eip1271_unavailable" },
  "PINT-429-001": { status: 429, title: "Rate Limited", detail: "Too many token exchanges; retry after the seconds in Retry-After.", type_name: "rate_limited" },

  // Webhooks (spec 5.3)
  "WHK-401-001": { status: 401, title: "Invalid Webhook Signature", detail: "The webhook signature or timestamp is missing or invalid." },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CATALOGUE, value);
}

export function errorDefinition(code: ErrorCode): ErrorDefinition {
  return ERROR_CATALOGUE[code];
}

/**
 * The `<type name>` of `{docs_url}/errors/<type name>`: the identity errors' own `type_name`,
 * else one made from the title ("Not Found" → `not_found`), which generic errors use on the
 * identity host.
 */
export function errorTypeName(code: ErrorCode): string {
  const { type_name, title } = errorDefinition(code);
  return type_name ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}
